//! The accept loop: HTTP/1.1 by hyper on every connection (its parse errors as JSON, see
//! [`super::parse_errors`]), until `shutdown` fires; then the open connections finish their
//! requests (searches end with their bounds) before it returns.

use std::time::Duration;

use axum::Router;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::parse_errors::{JsonParseErrors, MAX_HEAD_BYTES};

/// How long open connections may take to finish once the server stops.
const DRAIN: Duration = Duration::from_secs(15);

/// Serves `router` on `listener` until `shutdown` is cancelled.
pub async fn serve(listener: TcpListener, router: Router, shutdown: CancellationToken) {
    let graceful = GracefulShutdown::new();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown.cancelled() => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, say: wait a little rather than spin.
                eprintln!("dakon serve: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(JsonParseErrors::new(stream));
        let connection = hyper::server::conn::http1::Builder::new()
            .max_buf_size(MAX_HEAD_BYTES)
            .timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(Duration::from_secs(30))
            .serve_connection(io, TowerToHyperService::new(router.clone()));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that goes away mid-request is not the server's failure.
            let _ = connection.await;
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(DRAIN, graceful.shutdown()).await;
}

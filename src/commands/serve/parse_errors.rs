//! hyper answers a request it cannot parse (a request line over 64 KiB, a head larger than its
//! buffer, a malformed line) itself, before the router sees it, with an empty body. The API
//! promises a JSON error for every status, so this wrapper of the connection replaces that one
//! response with the same status and a JSON body saying what was wrong.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The largest request head (request line and headers) hyper reads; the router refuses heads
/// over [`super::routes::MAX_HEADERS_BYTES`] with a JSON 431 itself, so only heads larger
/// still get this wrapper's answer.
pub const MAX_HEAD_BYTES: usize = 4 << 20;

/// A connection whose writes are passed on, except hyper's own parse-error responses.
pub struct JsonParseErrors<T> {
    inner: T,
    /// A replacement being written, and how much of it is out.
    pending: Option<(Vec<u8>, usize)>,
}

impl<T> JsonParseErrors<T> {
    pub fn new(inner: T) -> Self {
        JsonParseErrors { inner, pending: None }
    }
}

/// The JSON response replacing `head` if it is one of hyper's parse-error answers: a 400, 414
/// or 431 status line with `content-length: 0` (the router never answers so: its errors have
/// a body).
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    if !text.contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let status_line = text.split("\r\n").next()?;
    let message = match status_line.strip_prefix("HTTP/1.1 ")?.get(..3)? {
        "400" => "the request could not be read as HTTP/1.1 (a malformed request line or header)".to_string(),
        "414" => {
            "the request line is over 64 KiB, longer than this server reads: a position is at most a few hundred characters".to_string()
        }
        "431" => format!("the request's headers are over {} MiB, more than this server reads", MAX_HEAD_BYTES >> 20),
        _ => return None,
    };
    let body = serde_json::json!({ "error": message }).to_string();
    Some(
        format!("{status_line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len())
            .into_bytes(),
    )
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonParseErrors<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonParseErrors<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_none() {
            match replacement(buf) {
                Some(bytes) => this.pending = Some((bytes, 0)),
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        // hyper calls again with the same bytes until they are taken: take them all once the
        // replacement is out.
        while let Some((bytes, written)) = &mut this.pending {
            if *written == bytes.len() {
                this.pending = None;
                return Poll::Ready(Ok(buf.len()));
            }
            let n = ready!(Pin::new(&mut this.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    // One buffer per write, so that hyper's whole head comes in one call.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::replacement;

    #[test]
    fn only_hypers_empty_parse_error_answers_are_replaced() {
        let hyper = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: Tue, 01 Dec 2026 22:00:00 GMT\r\n\r\n";
        let replaced = String::from_utf8(replacement(hyper).unwrap()).unwrap();
        assert!(replaced.starts_with("HTTP/1.1 414 URI Too Long\r\ncontent-type: application/json\r\n"), "{replaced}");
        let body = replaced.split("\r\n\r\n").nth(1).unwrap();
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(json["error"].as_str().unwrap().contains("64 KiB"));
        assert!(replacement(b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 30\r\n\r\n").is_none());
        assert!(replacement(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }
}

use dakon_solver::dakon::Dakon;
use dakon_solver::tables::TableFile;
use std::time::Instant;
fn main() {
    let k: u32 = std::env::args().nth(1).unwrap().parse().unwrap();
    let rules = Dakon::new(7).unwrap();
    let f = TableFile::open(&rules, std::path::Path::new(&format!("/tmp/tb7/dakon-7-k{k}.dkt")), k).unwrap();
    let v = f.read_values().unwrap();
    let n = v.len() as f64;
    for level in [9, 12, 15, 17, 19] {
        for block in [1usize << 18, 1 << 20] {
            let t = Instant::now();
            let s: usize = v.chunks(block).map(|c| zstd::bulk::compress(c, level).unwrap().len()).sum();
            println!("level {level} block {block}: {:.3} bits, {:.1} MB/s", 8.0 * s as f64 / n, n / 1e6 / t.elapsed().as_secs_f64());
        }
    }
}

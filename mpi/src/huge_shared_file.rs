//! Memory the ranks of a node share, in huge pages even where `/dev/shm` has none.
//!
//! Memory shared between processes is a file of a tmpfs (an MPI shared window is a file of
//! `/dev/shm`), and a tmpfs backs its files with 2 MiB pages only when it is mounted with
//! `huge=`. Distributions mount `/dev/shm` without it and only root may change that, so a
//! table the ranks share sits in 4 KiB pages and its random probes wait on page walks. But
//! any user may mount a tmpfs of their own inside new user and mount namespaces (Linux 3.8 on;
//! the kernel treats such a mount like any other). So [`HugeSharedFile::create`] forks a
//! child that enters such namespaces, mounts a private tmpfs with `huge=within_size` over
//! `/tmp` (in its namespace only), creates one file there of the size asked and waits; the
//! caller opens the child's file through `/proc/<child>/fd/<n>`, and the node's other ranks
//! open the caller's through `/proc/<caller>/fd/<n>` ([`HugeSharedFile::open`]). The mount
//! lives as long as the file is open or mapped; nothing outside the job sees it.
//!
//! Where user namespaces are disabled (a sysctl, a container's seccomp profile) or the kernel
//! has no huge pages for a tmpfs, [`HugeSharedFile::create`] says which step failed and the
//! caller falls back to an MPI window.

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// Size of the pages a tmpfs mounted with `huge=` backs its files with, on x86-64 and arm64.
pub const HUGE_PAGE: usize = 2 << 20;

/// A file of a private tmpfs in huge pages, or one opened from another process of the node.
pub struct HugeSharedFile {
    file: File,
}

/// What the child reports through its pipe: the step it reached and, on success, its
/// descriptor of the file, else the step's `errno`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Report {
    failed_step: i32,
    value: i32,
}

/// The child's steps, named in an error (`failed_step` counts from 1; 0 is success).
const STEPS: [&str; 7] = [
    "unshare(CLONE_NEWUSER | CLONE_NEWNS)",
    "writing /proc/self/setgroups",
    "writing /proc/self/uid_map",
    "writing /proc/self/gid_map",
    "mounting a tmpfs with huge=within_size",
    "creating the file",
    "sizing the file",
];

impl HugeSharedFile {
    /// A new file of `bytes` (rounded up to whole huge pages) on a tmpfs of its own mounted
    /// with `huge=within_size`, zeroed (a new file reads as zeros), its pages allocated as
    /// they are first touched.
    ///
    /// # Errors
    /// When `/sys/kernel/mm/transparent_hugepage/shmem_enabled` says `deny` (no tmpfs gets
    /// huge pages), when a step of the child fails (the error names it, e.g. user namespaces
    /// disabled), or when the child's file cannot be opened.
    pub fn create(bytes: usize) -> io::Result<HugeSharedFile> {
        let settings = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/shmem_enabled").unwrap_or_default();
        if settings.contains("[deny]") {
            return Err(io::Error::other("/sys/kernel/mm/transparent_hugepage/shmem_enabled is 'deny'"));
        }
        let size = whole_huge_pages(bytes);
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        // Everything the child writes is made here: after `fork` in a threaded process the
        // child may only make system calls (another thread may have held the allocator's lock).
        let text = |s: String| CString::new(s).expect("no NUL inside");
        let uid_map = text(format!("{uid} {uid} 1\n"));
        let gid_map = text(format!("{gid} {gid} 1\n"));
        let options = text(format!("huge=within_size,size={}k,nr_inodes=16,mode=0700", size / 1024 + 4));
        let size = libc::off_t::try_from(size).map_err(|_| io::Error::other("the file is too large for off_t"))?;
        let (report_read, report_write) = pipe()?;
        let (release_read, release_write) = pipe()?;
        // SAFETY: the child runs only `child_steps`, which makes system calls on the
        // prepared strings and ends with `_exit`.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        if pid == 0 {
            drop(report_read);
            drop(release_write);
            let report = child_steps(&uid_map, &gid_map, &options, size);
            // SAFETY: plain writes and reads of our own descriptors, then exit: no unwinding,
            // no destructors of the parent's state.
            unsafe {
                let bytes = &report as *const Report as *const libc::c_void;
                libc::write(report_write.as_raw_fd(), bytes, std::mem::size_of::<Report>());
                if report.failed_step == 0 {
                    // Holds the file open until the parent has opened it (its end closes).
                    let mut byte = 0u8;
                    libc::read(release_read.as_raw_fd(), &mut byte as *mut u8 as *mut libc::c_void, 1);
                }
                libc::_exit(0);
            }
        }
        drop(report_write);
        drop(release_read);
        let report = read_report(&report_read);
        let opened = report.and_then(|report| match report.failed_step {
            0 => Self::open(pid, report.value),
            step => {
                let name = STEPS.get(step as usize - 1).copied().unwrap_or("an unknown step");
                Err(io::Error::new(
                    io::Error::from_raw_os_error(report.value).kind(),
                    format!("{name}: {}", io::Error::from_raw_os_error(report.value)),
                ))
            }
        });
        drop(release_write);
        // SAFETY: reaping our own child.
        unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
        opened
    }

    /// The file another process of this machine holds open as descriptor `fd`, process `pid`
    /// (what [`HugeSharedFile::locator`] says on that process).
    ///
    /// # Errors
    /// If `/proc/<pid>/fd/<fd>` cannot be opened for reading and writing (another user's
    /// process, another PID namespace, a process gone).
    pub fn open(pid: i32, fd: i32) -> io::Result<HugeSharedFile> {
        Ok(HugeSharedFile { file: open_read_write(&format!("/proc/{pid}/fd/{fd}"))? })
    }

    /// This process's id and its descriptor of the file, for [`HugeSharedFile::open`].
    pub fn locator(&self) -> (i32, i32) {
        (std::process::id() as i32, self.file.as_raw_fd())
    }

    /// Maps the first `bytes` of the file (at most its size) into this process, shared: a
    /// store by any process that maps it is seen by all.
    ///
    /// # Errors
    /// If `mmap` fails.
    pub fn map(&self, bytes: usize) -> io::Result<SharedMapping> {
        let len = whole_huge_pages(bytes);
        // SAFETY: a new shared mapping of our file; the kernel places it at a huge-page
        // boundary for a tmpfs with huge pages.
        let start = unsafe {
            libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, self.file.as_raw_fd(), 0)
        };
        if start == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(SharedMapping { start: start as *mut u8, len })
    }
}

/// `bytes` rounded up to whole huge pages, at least one.
fn whole_huge_pages(bytes: usize) -> usize {
    bytes.div_ceil(HUGE_PAGE).max(1) * HUGE_PAGE
}

/// A shared mapping of a [`HugeSharedFile`], unmapped when dropped.
pub struct SharedMapping {
    start: *mut u8,
    len: usize,
}

// SAFETY: plain memory that the transposition table and the marks touch only atomically.
unsafe impl Send for SharedMapping {}
unsafe impl Sync for SharedMapping {}

impl SharedMapping {
    /// The first byte: aligned to a page.
    pub fn as_ptr(&self) -> *mut u8 {
        self.start
    }
}

impl Drop for SharedMapping {
    fn drop(&mut self) {
        // SAFETY: our own mapping, of this length; nothing uses it after its owner is gone.
        unsafe { libc::munmap(self.start as *mut libc::c_void, self.len) };
    }
}

/// The child's work: new user and mount namespaces, a tmpfs with huge pages over `/tmp`
/// (seen only there), a file of `size` bytes in it. Only system calls.
fn child_steps(uid_map: &CString, gid_map: &CString, options: &CString, size: libc::off_t) -> Report {
    let fail = |step: i32| Report { failed_step: step, value: io::Error::last_os_error().raw_os_error().unwrap_or(0) };
    // SAFETY: system calls on NUL-terminated literals and the strings the parent made.
    unsafe {
        if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) != 0 {
            return fail(1);
        }
        if !write_file(c"/proc/self/setgroups", c"deny") {
            return fail(2);
        }
        if !write_file(c"/proc/self/uid_map", uid_map) {
            return fail(3);
        }
        if !write_file(c"/proc/self/gid_map", gid_map) {
            return fail(4);
        }
        // Nothing of what follows reaches the namespace we came from (a mount namespace made
        // by a less privileged user propagates nothing back; private makes it explicit).
        libc::mount(std::ptr::null(), c"/".as_ptr(), std::ptr::null(), libc::MS_REC | libc::MS_PRIVATE, std::ptr::null());
        let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
        if libc::mount(c"dakon-table".as_ptr(), c"/tmp".as_ptr(), c"tmpfs".as_ptr(), flags, options.as_ptr() as *const libc::c_void) != 0 {
            return fail(5);
        }
        let fd = libc::open(c"/tmp/table".as_ptr(), libc::O_RDWR | libc::O_CREAT | libc::O_EXCL, 0o600);
        if fd < 0 {
            return fail(6);
        }
        if libc::ftruncate(fd, size) != 0 {
            return fail(7);
        }
        Report { failed_step: 0, value: fd }
    }
}

/// Writes `text` to the file at `path`, which must exist; whether all of it was written.
///
/// # Safety
/// Only system calls: callable in a child forked from a threaded process.
unsafe fn write_file(path: &std::ffi::CStr, text: &std::ffi::CStr) -> bool {
    let fd = libc::open(path.as_ptr(), libc::O_WRONLY);
    if fd < 0 {
        return false;
    }
    let len = text.to_bytes().len();
    let written = libc::write(fd, text.as_ptr() as *const libc::c_void, len);
    libc::close(fd);
    written == len as isize
}

/// A pipe, both ends closed on `exec`.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors are new and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The child's [`Report`], or an error if it ended without one.
fn read_report(pipe: &OwnedFd) -> io::Result<Report> {
    let mut report = Report::default();
    let want = std::mem::size_of::<Report>();
    // SAFETY: reading at most `want` bytes into `report`, a plain C struct.
    let got = unsafe { libc::read(pipe.as_raw_fd(), &mut report as *mut Report as *mut libc::c_void, want) };
    if got != want as isize {
        return Err(io::Error::other("the process that mounts the tmpfs ended without a report"));
    }
    Ok(report)
}

fn open_read_write(path: &str) -> io::Result<File> {
    std::fs::OpenOptions::new().read(true).write(true).open(path).map_err(|e| io::Error::new(e.kind(), format!("{path}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes of the mapping that starts at `start` backed by huge pages, from `/proc/self/smaps`.
    fn huge_bytes_of(start: *mut u8) -> usize {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ').filter(|(r, _)| r.contains('-') && !r.ends_with(':')) {
                inside = usize::from_str_radix(range.split('-').next().unwrap(), 16).ok() == Some(start as usize);
            } else if inside && line.starts_with("ShmemPmdMapped:") {
                return line.split_whitespace().nth(1).unwrap().parse::<usize>().unwrap() * 1024;
            }
        }
        0
    }

    /// Where the host allows user namespaces (`/proc/sys/user/max_user_namespaces` above 0),
    /// the file is made, shared between two mappings, and its touched pages are huge ones.
    #[test]
    fn a_file_of_its_own_tmpfs_is_shared_and_in_huge_pages() {
        let allowed = std::fs::read_to_string("/proc/sys/user/max_user_namespaces").is_ok_and(|n| n.trim() != "0");
        let file = match HugeSharedFile::create(5 << 20) {
            Ok(file) => file,
            Err(e) => {
                assert!(!allowed, "user namespaces are allowed here, yet: {e}");
                assert!(e.to_string().contains("unshare"), "{e}");
                return;
            }
        };
        let (pid, fd) = file.locator();
        let other = HugeSharedFile::open(pid, fd).unwrap();
        let (a, b) = (file.map(5 << 20).unwrap(), other.map(5 << 20).unwrap());
        assert_eq!(a.as_ptr().align_offset(HUGE_PAGE), 0, "the kernel aligns a huge tmpfs mapping");
        // SAFETY: both mappings are 6 MiB of the same file.
        unsafe {
            assert_eq!(*b.as_ptr().add(3 << 20), 0, "a new file reads as zeros");
            std::ptr::write_bytes(a.as_ptr(), 7, 6 << 20);
            assert_eq!(*b.as_ptr().add((6 << 20) - 1), 7, "a store through one mapping is seen through the other");
        }
        assert_eq!(huge_bytes_of(a.as_ptr()), 6 << 20, "every touched page of the file is a huge page");
    }

    #[test]
    fn a_missing_process_is_refused_with_its_path() {
        let e = HugeSharedFile::open(i32::MAX, 3).err().expect("no such process");
        assert!(e.to_string().contains(&format!("/proc/{}/fd/3", i32::MAX)), "{e}");
    }
}

//! What the `mosaic` binary writes on stdout, and how it ends when the
//! reader has gone: `mosaic plan env.yaml | head` closes the pipe after ten
//! lines, and the next write fails with `BrokenPipe`. `println!` panics
//! there ("failed printing to stdout", exit 101); every write of the binary
//! goes through [`outln!`] and [`out!`] instead, which end the process at
//! once, without a message, with [`READER_CLOSED`].
//!
//! Why not SIGPIPE: Rust ignores the signal so that writes fail with an
//! error instead of killing the process, and restoring its default would
//! need an `unsafe` call through `libc` (not a dependency here), would only
//! work on unix, and would apply to the server's sockets and the HTTP
//! client's as well. Catching the error where it happens works everywhere,
//! touches nothing but stdout, and keeps the exit code ours.

use std::fmt;
use std::io::{self, Write};

/// The exit code when stdout's reader has closed: 141, what a process killed
/// by SIGPIPE reports to its shell (128 + 13), so that `set -o pipefail`
/// treats `mosaic … | head` as every other tool cut short by its reader.
pub const READER_CLOSED: i32 = 141;

/// Writes `args` on stdout, then flushes it, so that a closed reader is
/// noticed at this write; ends the process when it is (see the module doc),
/// and with exit 2 and a message on any other failure to write.
pub fn write(args: fmt::Arguments<'_>, newline: bool) {
    let mut stdout = io::stdout().lock();
    let written = stdout
        .write_fmt(args)
        .and_then(|()| {
            if newline {
                stdout.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|()| stdout.flush());
    drop(stdout);
    if let Err(e) = written {
        fail(&e)
    }
}

fn fail(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(READER_CLOSED);
    }
    let _ = writeln!(io::stderr(), "mosaic: cannot write on stdout: {e}");
    std::process::exit(2)
}

/// `println!` for the binary's stdout: a closed reader ends the process
/// quietly instead of a panic.
macro_rules! outln {
    () => {
        $crate::out::write(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*), true)
    };
}

/// `print!` for the binary's stdout, as [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*), false)
    };
}

pub(crate) use {out, outln};

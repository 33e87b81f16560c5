//! Reading, and gunzipping, on a thread of its own, a block ahead of the
//! parse: the kernel's copy and the inflate run on the second core.

use std::io::{self, Read};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::thread;

/// Bytes handed over at a time.
const BLOCK: usize = 4 << 20;

/// The consuming end: a [`Read`] over the blocks the thread has read.
pub(super) struct ReadAhead {
    full: Receiver<io::Result<Vec<u8>>>,
    /// Blocks given back for reuse, so that they are not faulted in anew.
    empty: Sender<Vec<u8>>,
    block: Vec<u8>,
    pos: usize,
}

/// Runs `f` on `reader` read ahead by a scoped thread.
///
/// When `f` stops early the thread ends at its next block; until then (a
/// stream that sends nothing more) the return waits for it.
pub(super) fn read_ahead<R: Read + Send, T>(reader: R, f: impl FnOnce(&mut ReadAhead) -> T) -> T {
    thread::scope(|scope| {
        let (full_tx, full) = sync_channel(1);
        let (empty, empty_rx) = channel();
        scope.spawn(move || produce(reader, &full_tx, &empty_rx));
        let mut ahead = ReadAhead {
            full,
            empty,
            block: Vec::new(),
            pos: 0,
        };
        f(&mut ahead)
    })
}

/// Reads blocks until the end, an error, or the consumer is gone.
fn produce<R: Read>(
    mut reader: R,
    full: &SyncSender<io::Result<Vec<u8>>>,
    empty: &Receiver<Vec<u8>>,
) {
    loop {
        let mut block = empty.try_recv().unwrap_or_default();
        block.resize(BLOCK, 0);
        let mut len = 0;
        let error = loop {
            match reader.read(&mut block[len..]) {
                Ok(0) => break None,
                Ok(n) => {
                    len += n;
                    if len == BLOCK {
                        break None;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => break Some(e),
            }
        };
        block.truncate(len);
        let end = len < BLOCK;
        if len > 0 && full.send(Ok(block)).is_err() {
            return;
        }
        if let Some(e) = error {
            let _ = full.send(Err(e));
            return;
        }
        if end {
            return;
        }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.block.len() {
            match self.full.recv() {
                Ok(Ok(block)) => {
                    let done = std::mem::replace(&mut self.block, block);
                    // The thread may have ended; the block is then just dropped.
                    let _ = self.empty.send(done);
                    self.pos = 0;
                }
                Ok(Err(e)) => return Err(e),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.block.len() - self.pos);
        buf[..n].copy_from_slice(&self.block[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads in odd sizes, then fails once if asked to.
    struct Dribble {
        data: Vec<u8>,
        pos: usize,
        fail_at_end: bool,
    }

    impl Read for Dribble {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.pos == self.data.len() && self.fail_at_end {
                self.fail_at_end = false;
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.data.len() - self.pos).min(777_777);
            buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    fn data(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 31 % 251) as u8).collect()
    }

    #[test]
    fn passes_every_byte_in_order() {
        for len in [0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 12345] {
            let input = data(len);
            let reader = Dribble {
                data: input.clone(),
                pos: 0,
                fail_at_end: false,
            };
            let mut out = Vec::new();
            read_ahead(reader, |r| r.read_to_end(&mut out)).unwrap();
            assert_eq!(out, input, "{len} bytes");
        }
    }

    #[test]
    fn an_error_comes_after_the_bytes_before_it() {
        let input = data(BLOCK + 10);
        let reader = Dribble {
            data: input.clone(),
            pos: 0,
            fail_at_end: true,
        };
        let mut out = vec![0; BLOCK + 10];
        read_ahead(reader, |r| {
            r.read_exact(&mut out).unwrap();
            assert_eq!(r.read(&mut [0; 8]).unwrap_err().to_string(), "disk on fire");
        });
        assert_eq!(out, input);
    }

    #[test]
    fn stopping_early_ends_the_thread() {
        let reader = Dribble {
            data: data(10 * BLOCK),
            pos: 0,
            fail_at_end: false,
        };
        let first = read_ahead(reader, |r| {
            let mut b = [0; 4];
            r.read_exact(&mut b).map(|()| b)
        });
        assert_eq!(first.unwrap(), [0, 31, 62, 93]);
    }
}

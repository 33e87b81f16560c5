//! Reading, and gunzipping, on a thread of its own, a block ahead of the
//! parse: the kernel's copy and the inflate run on the second core.
//!
//! Each block has room before its bytes, so that a reader can take the
//! block itself as its next buffer, with the unread end of the one before
//! moved into that room, instead of copying the block ([`ReadAhead::next_block`]).

use std::io::{self, Read};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::thread;

/// Bytes handed over at a time: a few of these are in flight, so they
/// weigh in the peak memory of a small snapshot.
pub(super) const BLOCK: usize = 2 << 20;

/// Bytes free before each block's bytes.
pub(super) const ROOM: usize = 256 << 10;

/// A block as the thread read it: its bytes from [`ROOM`], and how many
/// newlines they hold, counted there so that the parse need not.
struct Filled {
    block: Vec<u8>,
    lines: usize,
}

/// What [`ReadAhead::next_block`] gives.
pub(super) enum Next {
    /// The next block, its bytes from `start`, the ones kept first; the
    /// block's own bytes, from [`ROOM`], hold `lines` newlines (0 when not counted).
    Block {
        block: Vec<u8>,
        start: usize,
        lines: usize,
    },
    /// The input has ended.
    End,
    /// Read by copying instead: what is kept does not fit in the room, or
    /// part of the current block is still unread.
    Copy,
}

/// The consuming end: a [`Read`] over the blocks the thread has read.
pub(super) struct ReadAhead {
    full: Receiver<io::Result<Filled>>,
    /// Blocks given back for reuse, so that they are not faulted in anew.
    empty: Sender<Vec<u8>>,
    block: Vec<u8>,
    pos: usize,
    /// Whether the thread counts newlines.
    lines: bool,
}

/// Runs `f` on `reader` read ahead by a scoped thread, which counts the
/// newlines of each block if `lines` (for positions in messages).
///
/// When `f` stops early the thread ends at its next block; until then (a
/// stream that sends nothing more) the return waits for it.
pub(super) fn read_ahead<R: Read + Send, T>(
    reader: R,
    lines: bool,
    f: impl FnOnce(&mut ReadAhead) -> T,
) -> T {
    thread::scope(|scope| {
        let (full_tx, full) = sync_channel(1);
        let (empty, empty_rx) = channel();
        scope.spawn(move || produce(reader, lines, &full_tx, &empty_rx));
        let mut ahead = ReadAhead {
            full,
            empty,
            block: Vec::new(),
            pos: 0,
            lines,
        };
        f(&mut ahead)
    })
}

/// Reads blocks until the end, an error, or the consumer is gone.
fn produce<R: Read>(
    mut reader: R,
    count_lines: bool,
    full: &SyncSender<io::Result<Filled>>,
    empty: &Receiver<Vec<u8>>,
) {
    loop {
        let mut block = empty
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(ROOM + BLOCK));
        block.resize(ROOM + BLOCK, 0);
        let (mut len, mut lines) = (0, 0);
        let error = loop {
            match reader.read(&mut block[ROOM + len..]) {
                Ok(0) => break None,
                Ok(n) => {
                    // Counted while the bytes just read are in the cache.
                    if count_lines {
                        lines += memchr::memchr_iter(b'\n', &block[ROOM + len..][..n]).count();
                    }
                    len += n;
                    if len == BLOCK {
                        break None;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => break Some(e),
            }
        };
        block.truncate(ROOM + len);
        let end = len < BLOCK;
        if len > 0 && full.send(Ok(Filled { block, lines })).is_err() {
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

impl ReadAhead {
    /// Whether blocks come with their newlines counted.
    pub(super) fn counts_lines(&self) -> bool {
        self.lines
    }

    /// The next block, with `keep` moved in just before its bytes.
    pub(super) fn next_block(&mut self, keep: &[u8]) -> io::Result<Next> {
        if keep.len() > ROOM || self.pos < self.block.len() {
            return Ok(Next::Copy);
        }
        match self.full.recv() {
            Ok(Ok(Filled { mut block, lines })) => {
                let start = ROOM - keep.len();
                block[start..ROOM].copy_from_slice(keep);
                let done = std::mem::take(&mut self.block);
                self.recycle(done);
                self.pos = 0;
                Ok(Next::Block {
                    block,
                    start,
                    lines,
                })
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Ok(Next::End),
        }
    }

    /// Gives a buffer back for a later block.
    /// A buffer of another size (the reader's first, which grew to hold
    /// the kept history) is freed instead.
    pub(super) fn recycle(&mut self, buf: Vec<u8>) {
        // The thread may have ended; the buffer is then just dropped.
        if buf.capacity() == ROOM + BLOCK {
            let _ = self.empty.send(buf);
        }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.block.len() {
            match self.full.recv() {
                Ok(Ok(Filled { block, .. })) => {
                    let done = std::mem::replace(&mut self.block, block);
                    self.recycle(done);
                    self.pos = ROOM;
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
            read_ahead(reader, true, |r| r.read_to_end(&mut out)).unwrap();
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
        read_ahead(reader, true, |r| {
            r.read_exact(&mut out).unwrap();
            assert_eq!(r.read(&mut [0; 8]).unwrap_err().to_string(), "disk on fire");
        });
        assert_eq!(out, input);
    }

    #[test]
    fn blocks_taken_whole_carry_the_kept_bytes_before_their_own() {
        let input = data(5 * BLOCK + 999);
        let reader = Dribble {
            data: input.clone(),
            pos: 0,
            fail_at_end: false,
        };
        let out = read_ahead(reader, true, |r| {
            // Start by copying, as the reader does while it keeps the whole input.
            let mut out = vec![0; 100];
            r.read_exact(&mut out).unwrap();
            assert!(matches!(r.next_block(&[]).unwrap(), Next::Copy));
            let mut rest = vec![0; BLOCK - 100];
            r.read_exact(&mut rest).unwrap();
            out.extend_from_slice(&rest);
            // Then keep the last 10 bytes of each block, or too many to fit once.
            let mut buf: Vec<u8> = Vec::new();
            let mut kept = 0;
            loop {
                let keep_len = if out.len() == 2 * BLOCK { ROOM + 1 } else { 10 };
                let keep = out[out.len() - keep_len.min(out.len())..].to_vec();
                match r.next_block(&keep).unwrap() {
                    Next::Block {
                        block,
                        start,
                        lines,
                    } => {
                        assert_eq!(lines, block[ROOM..].iter().filter(|&&b| b == b'\n').count());
                        assert_eq!(&block[start..start + keep.len()], &keep[..]);
                        out.extend_from_slice(&block[start + keep.len()..]);
                        kept += 1;
                        r.recycle(std::mem::replace(&mut buf, block));
                    }
                    Next::Copy => {
                        let mut more = vec![0; BLOCK];
                        let n = r.read(&mut more).unwrap();
                        out.extend_from_slice(&more[..n]);
                    }
                    Next::End => return (out, kept),
                }
            }
        });
        assert_eq!(out.0, input);
        // Blocks 2, 4, 5 and 6; block 3 was copied.
        assert_eq!(out.1, 4);
    }

    #[test]
    fn stopping_early_ends_the_thread() {
        let reader = Dribble {
            data: data(10 * BLOCK),
            pos: 0,
            fail_at_end: false,
        };
        let first = read_ahead(reader, true, |r| {
            let mut b = [0; 4];
            r.read_exact(&mut b).map(|()| b)
        });
        assert_eq!(first.unwrap(), [0, 31, 62, 93]);
    }
}

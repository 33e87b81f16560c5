//! The layout of every JSON document plan-inspect writes: serde_json's
//! pretty layout (two spaces a level) with each line's break and indent
//! written at once, where serde_json's own formatter writes the indent a
//! level at a time; a report writes a line for every field.

use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;

/// The deepest indent written at once; deeper lines add the rest a level
/// at a time.
const WIDEST: usize = 64;

/// A comma, a line break and the widest indent: a line's start is a slice.
const LINE: [u8; 2 + 2 * WIDEST] = {
    let mut line = [b' '; 2 + 2 * WIDEST];
    line[0] = b',';
    line[1] = b'\n';
    line
};

/// The layout of `serde_json::ser::PrettyFormatter::new()`, byte for byte.
pub(super) struct Layout {
    depth: usize,
    has_value: bool,
}

impl Layout {
    /// The layout of a value `depth` arrays or objects deep.
    pub(super) fn at(depth: usize) -> Layout {
        Layout {
            depth,
            has_value: false,
        }
    }

    /// A line break, after a comma if `comma`, and the current indent.
    fn line<W: ?Sized + io::Write>(&self, out: &mut W, comma: bool) -> io::Result<()> {
        let start = usize::from(!comma);
        let levels = self.depth.min(WIDEST);
        out.write_all(&LINE[start..2 + 2 * levels])?;
        for _ in levels..self.depth {
            out.write_all(b"  ")?;
        }
        Ok(())
    }

    /// An array or object opened with `bracket`, one level deeper.
    fn open<W: ?Sized + io::Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(bracket)
    }

    /// An array or object closed with `bracket`, on a line of its own
    /// unless empty.
    fn close<W: ?Sized + io::Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(out, false)?;
        }
        out.write_all(bracket)
    }
}

impl Formatter for Layout {
    fn begin_array<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.line(out, !first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.line(out, !first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `value` as a document of its own, ending in a newline.
pub(super) fn document(value: &impl Serialize) -> String {
    let mut out = nested(0, value);
    out.push(b'\n');
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// `value` laid out as it stands `depth` arrays or objects deep in a
/// document: its inner lines indented as far, its first line not.
pub(super) fn nested(depth: usize, value: &impl Serialize) -> Vec<u8> {
    let mut out = Vec::new();
    write(&mut out, depth, value).expect("a Vec takes anything");
    out
}

/// `value` laid out `depth` deep, written to `out` as it is produced.
pub(super) fn write(
    out: &mut impl io::Write,
    depth: usize,
    value: &impl Serialize,
) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, Layout::at(depth));
    value.serialize(&mut ser).map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Nested past the widest indent written at once, with empty and
    /// non-empty arrays and objects, at several starting depths.
    #[test]
    fn lays_out_as_serde_json_s_pretty_formatter() {
        let mut deep = json!({"leaf": [1, {}, [], {"a": null}]});
        for i in 0..70 {
            deep = json!({ format!("k{i}"): [deep, i, "x"] });
        }
        for depth in [0, 1, 2, 40] {
            let write = |layout: &mut dyn FnMut(&mut Vec<u8>)| {
                let mut out = Vec::new();
                layout(&mut out);
                String::from_utf8(out).unwrap()
            };
            let ours = write(&mut |out| {
                let mut ser = serde_json::Serializer::with_formatter(out, Layout::at(depth));
                Serialize::serialize(&deep, &mut ser).unwrap();
            });
            let theirs = write(&mut |out| {
                let mut f = serde_json::ser::PrettyFormatter::new();
                for _ in 0..depth {
                    f.begin_array(&mut io::sink()).unwrap();
                }
                let mut ser = serde_json::Serializer::with_formatter(out, f);
                Serialize::serialize(&deep, &mut ser).unwrap();
            });
            assert_eq!(ours, theirs, "depth {depth}");
        }
    }
}

//! `--man`: clap's man page with the sections clap does not write.

use std::io;

use clap::CommandFactory;

use crate::cli::{self, Cli};

/// clap's man page with EXIT STATUS and ENVIRONMENT sections added before
/// VERSION.
pub fn man_page() -> io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(Cli::command());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    man.render_extra_section(&mut out)?;
    roff_section(&mut out, "EXIT STATUS", cli::EXIT_STATUS);
    out.extend_from_slice(format!(".PP\n{}\n", roff_text(cli::EXIT_STATUS_NOMAD)).as_bytes());
    roff_section(&mut out, "ENVIRONMENT", cli::ENVIRONMENT);
    man.render_version_section(&mut out)?;
    Ok(out)
}

/// A roff section of tagged paragraphs.
fn roff_section(out: &mut Vec<u8>, title: &str, items: &[(&str, &str)]) {
    out.extend_from_slice(format!(".SH \"{title}\"\n").as_bytes());
    for (tag, text) in items {
        out.extend_from_slice(format!(".TP\n\\fB{tag}\\fR\n{}\n", roff_text(text)).as_bytes());
    }
}

/// Text safe in a roff paragraph: backslashes doubled, no line starting with a
/// control character.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    match escaped.chars().next() {
        Some('.' | '\'') => format!("\\&{escaped}"),
        _ => escaped,
    }
}

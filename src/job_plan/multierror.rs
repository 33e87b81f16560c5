//! Errors worded as Nomad's go-multierror words a list of them.

/// go-multierror's text.
pub fn multierror(errs: &[String]) -> String {
    let points: String = errs.iter().map(|e| format!("\t* {e}\n")).collect();
    let n = errs.len();
    let what = if n == 1 { "error" } else { "errors" };
    format!("{n} {what} occurred:\n{points}\n")
}

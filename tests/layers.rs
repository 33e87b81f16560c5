//! The layering of docs/architecture.md, measured from the source: every
//! `use` and every `crate::`, `super::`, `self::` or child-module path in
//! src/ (test modules left out) is an arrow to the file that defines the
//! name, through re-exports. No arrow may close a loop between files, none
//! may point to a higher layer, and explain, report and render may take no
//! decision function of the reconciler, only its recorded facts.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Module = Vec<String>;

/// Each module of the library with its code, test modules cut off.
fn modules() -> BTreeMap<Module, String> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let (mut all, mut test_only) = (BTreeMap::new(), BTreeSet::new());
    for file in files {
        let rel = file.strip_prefix(&src).unwrap().with_extension("");
        let mut m: Module = rel.iter().map(|s| s.to_string_lossy().into()).collect();
        if m.last().is_some_and(|l| l == "mod" || l == "lib") {
            m.pop();
        }
        if m == ["main"] {
            continue; // the binary, a crate of its own
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let cut = lines.iter().position(|l| l.trim() == "#[cfg(test)]");
        for w in lines.windows(2).filter(|w| w[0].trim() == "#[cfg(test)]") {
            if let Some(name) = w[1].trim().strip_prefix("mod ") {
                let mut child = m.clone();
                child.push(name.trim_end_matches(';').to_string());
                test_only.insert(child);
            }
        }
        let code: Vec<&str> = lines[..cut.unwrap_or(lines.len())]
            .iter()
            .map(|l| l.find("//").map_or(*l, |i| &l[..i]))
            .collect();
        all.insert(m, code.join("\n"));
    }
    all.retain(|m, _| !test_only.iter().any(|t| m.starts_with(t)));
    all
}

/// The `use` trees of `code` as (path, local name, re-exported) triples,
/// and the code without them.
fn uses(code: &str) -> (Vec<(Vec<String>, String, bool)>, String) {
    fn tree(
        t: &[String],
        pos: &mut usize,
        mut path: Vec<String>,
        out: &mut Vec<(Vec<String>, String)>,
    ) {
        while *pos < t.len() {
            let tok = t[*pos].clone();
            *pos += 1;
            if tok == "{" {
                while *pos < t.len() && t[*pos] != "}" {
                    tree(t, pos, path.clone(), out);
                    *pos += usize::from(t.get(*pos).is_some_and(|x| x == ","));
                }
                *pos += 1;
                return;
            }
            let mut name = tok.clone();
            if tok != "self" {
                path.push(tok);
            }
            if t.get(*pos).is_some_and(|x| x == "::") {
                *pos += 1;
                continue;
            }
            if t.get(*pos).is_some_and(|x| x == "as") {
                name = t[*pos + 1].clone();
                *pos += 2;
            }
            if name == "self" {
                name = path.last().cloned().unwrap_or_default();
            }
            out.push((path, name));
            return;
        }
    }
    let (mut out, mut rest) = (Vec::new(), String::new());
    let mut text = code;
    while let Some(i) = text.find("use ") {
        let start = i == 0 || text[..i].ends_with([' ', '\n', ')']);
        let end = text[i..].find(';').map_or(text.len(), |e| i + e);
        if !start {
            rest.push_str(&text[..i + 4]);
            text = &text[i + 4..];
            continue;
        }
        rest.push_str(&text[..i]);
        let spaced: String = text[i + 4..end]
            .chars()
            .flat_map(|c| {
                if "{},".contains(c) {
                    vec![' ', c, ' ']
                } else {
                    vec![c]
                }
            })
            .collect();
        let toks: Vec<String> = spaced
            .replace("::", " :: ")
            .split_whitespace()
            .map(String::from)
            .collect();
        let line = text[..i].rsplit('\n').next().unwrap_or("");
        let export = line.trim_start().starts_with("pub");
        let mut one = Vec::new();
        tree(&toks, &mut 0, Vec::new(), &mut one);
        out.extend(one.into_iter().map(|(p, n)| (p, n, export)));
        text = &text[end.min(text.len())..];
    }
    rest.push_str(text);
    (out, rest)
}

/// Qualified paths in code outside `use`: `a::b::c` whose first segment
/// is `crate`, `super`, `self` or a module name.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if word(b[i]) && (i == 0 || !(word(b[i - 1]) || b[i - 1] == b':')) {
            let mut segs = Vec::new();
            loop {
                let s = i;
                while i < b.len() && word(b[i]) {
                    i += 1;
                }
                segs.push(code[s..i].to_string());
                if b[i..].starts_with(b"::") && b.get(i + 2).is_some_and(|c| word(*c)) {
                    i += 2;
                } else {
                    break;
                }
            }
            if segs.len() > 1 {
                out.push(segs);
            }
        }
        i += 1;
    }
    out
}

/// The library's modules, what names each brings in, and the arrows.
struct Crate {
    code: BTreeMap<Module, String>,
    names: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
    arrows: BTreeMap<Module, BTreeSet<Module>>,
    /// The names each module takes from elsewhere: (module, item).
    taken: BTreeMap<Module, Vec<(Module, String)>>,
}

impl Crate {
    fn read() -> Crate {
        let code = modules();
        let mut found = BTreeMap::new();
        let mut names = BTreeMap::new();
        for (m, text) in &code {
            let (used, rest) = uses(text);
            let own: BTreeMap<String, Vec<String>> = used
                .iter()
                .map(|(p, n, _)| (n.clone(), p.clone()))
                .collect();
            names.insert(m.clone(), own);
            // A re-export only passes a name on: the arrow is its user's.
            let used = used.into_iter().filter(|(_, _, export)| !export);
            let mut all: Vec<Vec<String>> = used.map(|(p, _, _)| p).collect();
            all.extend(paths(&rest));
            found.insert(m.clone(), all);
        }
        let mut c = Crate {
            code,
            names,
            arrows: BTreeMap::new(),
            taken: BTreeMap::new(),
        };
        for (m, all) in found {
            for p in all {
                if let Some((to, item)) = c.resolve(&m, &p, 0)
                    && to != m
                    && !m.is_empty()
                {
                    c.arrows.entry(m.clone()).or_default().insert(to.clone());
                    c.taken
                        .entry(m.clone())
                        .or_default()
                        .push((to, item.unwrap_or_default()));
                }
            }
        }
        c
    }

    /// The module that defines what `path`, written in `from`, names, with
    /// the item's name; `None` for another crate.
    fn resolve(
        &self,
        from: &Module,
        path: &[String],
        depth: u8,
    ) -> Option<(Module, Option<String>)> {
        let (mut base, mut rest) = (from.clone(), path);
        match path.first()?.as_str() {
            "crate" => (base, rest) = (Vec::new(), &path[1..]),
            "self" => rest = &path[1..],
            "super" => {
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
            }
            first
                if self
                    .code
                    .contains_key(&[from.clone(), vec![first.into()]].concat()) => {}
            _ => return None,
        }
        while let Some(s) = rest.first() {
            let child = [base.clone(), vec![s.clone()]].concat();
            if !self.code.contains_key(&child) {
                break;
            }
            (base, rest) = (child, &rest[1..]);
        }
        let Some(item) = rest.first() else {
            return Some((base, None));
        };
        if let Some(p) = self.names.get(&base).and_then(|n| n.get(item))
            && depth < 8
            && let Some(found) = self.resolve(&base, p, depth + 1)
        {
            return Some(found);
        }
        Some((base, Some(item.clone())))
    }
}

fn name(m: &Module) -> String {
    format!("src/{}", m.join("/"))
}

#[test]
fn no_import_cycle_between_files() {
    let c = Crate::read();
    let reach = |from: &Module| {
        let (mut seen, mut todo) = (BTreeSet::new(), vec![from.clone()]);
        while let Some(m) = todo.pop() {
            for to in c.arrows.get(&m).into_iter().flatten() {
                if seen.insert(to.clone()) {
                    todo.push(to.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&Module, BTreeSet<Module>> =
        c.code.keys().map(|m| (m, reach(m))).collect();
    let cycles: BTreeSet<Vec<String>> = reached
        .iter()
        .filter(|(m, r)| r.contains(**m))
        .map(|(m, r)| {
            r.iter()
                .filter(|o| reached[o].contains(*m))
                .map(name)
                .collect()
        })
        .collect();
    assert!(
        c.arrows.len() > 50,
        "too few arrows read: {}",
        c.arrows.len()
    );
    let known: BTreeSet<Vec<String>> = KNOWN_CYCLES
        .iter()
        .map(|c| c.iter().map(|f| f.to_string()).collect())
        .collect();
    assert_eq!(
        cycles, known,
        "files that import each other in a loop (KNOWN_CYCLES must match)"
    );
}

/// Loops left to untangle: none, and none may appear.
const KNOWN_CYCLES: &[&[&str]] = &[];

/// The layer of each top-level module, as docs/architecture.md lists them;
/// the reader sits beside the reconciler, and only the CLI takes it.
fn layer(m: &Module) -> u8 {
    match m.first().map_or("", String::as_str) {
        "time" | "warning" | "now" => 1,
        "model" => 2,
        "version" | "feasibility" => 3,
        "reconciler" | "fit" | "placement" | "read" => 4,
        "system" => 5,
        "report" => 6,
        "replay" => 7,
        "explain" | "job_plan" | "servers" => 8,
        "render" => 9,
        "cli" | "commands" | "exit" | "man" | "memory" | "progress" | "terminal" => 10,
        other => panic!("src/{other} is in no layer of docs/architecture.md"),
    }
}

#[test]
fn no_import_up_a_layer() {
    let c = Crate::read();
    let read = |t: &Module| t.first().is_some_and(|f| f == "read");
    let up: Vec<String> = c
        .arrows
        .iter()
        .flat_map(|(m, to)| to.iter().map(move |t| (m, t)))
        .filter(|(m, t)| layer(t) > layer(m) || (read(t) && !read(m) && layer(m) < 10))
        .map(|(m, t)| format!("{} -> {}", name(m), name(t)))
        .collect();
    assert!(up.is_empty(), "imports of a higher layer: {up:#?}");
}

/// What explain, report and render may not take from the reconciler besides
/// its functions: the rule set and the inputs of a decision. They read the
/// facts the reconciler recorded.
const DECIDERS: &[&str] = &[
    "Rules",
    "TaintContext",
    "Reconciler",
    "ReconcileInput",
    "UpdateFn",
];

#[test]
fn explain_report_and_render_call_no_decision_of_the_reconciler() {
    let c = Crate::read();
    let mut calls = Vec::new();
    for (m, taken) in &c.taken {
        if !["explain", "report", "render"].contains(&m[0].as_str()) {
            continue;
        }
        let reconciler = |f: &Module| f.first().is_some_and(|t| t == "reconciler");
        for (from, item) in taken.iter().filter(|(f, _)| reconciler(f)) {
            let function = item.starts_with(|ch: char| ch.is_ascii_lowercase());
            if function || DECIDERS.contains(&item.as_str()) {
                calls.push(format!("{} takes {item} from {}", name(m), name(from)));
            }
        }
        // A decision made again through a fact's constructor.
        for (n, path) in &c.names[m] {
            let of_reconciler = c.resolve(m, path, 0).is_some_and(|(f, _)| reconciler(&f));
            if of_reconciler && c.code[m].contains(&format!("{n}::of(")) {
                calls.push(format!("{} calls {n}::of", name(m)));
            }
        }
    }
    assert!(calls.is_empty(), "decisions taken again: {calls:#?}");
}

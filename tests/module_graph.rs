//! The library's modules import each other without a cycle, and the element
//! types at the bottom (`src/scalar/`) import nothing else from the crate.
//!
//! The graph is built at the file level from the source: every
//! `crate::…`/`super::…`/`self::…` path and every `use` of a child module,
//! resolved through re-exports (`pub use`) to the file that defines the
//! item. Re-exports themselves are not edges: a parent that re-exports its
//! children is a facade, not a dependency. Nor is a path into `src/lib.rs`:
//! the root holds the facade and the `#[macro_export]` macros, which expand
//! where they are used. `crate::value` and `crate::algebra` are
//! `tilelayout-core`, another crate.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Cycles tolerated, as sorted file lists: none. (An entry must name a
/// cycle that exists: the test fails on a stale entry, so a list cannot
/// rot.)
const ALLOWED: &[&[&str]] = &[];

/// Modules that stand for another crate.
const EXTERNAL: &[&str] = &["crate::value", "crate::algebra", "crate::half"];

#[test]
fn module_graph_has_no_cycle_but_the_listed_ones() {
    let g = Graph::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let cycles = g.cycles();
    let mut problems = Vec::new();
    for c in &cycles {
        if !ALLOWED
            .iter()
            .any(|a| a.iter().copied().eq(c.iter().map(String::as_str)))
        {
            problems.push(format!("import cycle:\n{}", g.explain(c)));
        }
    }
    for a in ALLOWED {
        if !cycles
            .iter()
            .any(|c| a.iter().copied().eq(c.iter().map(String::as_str)))
        {
            problems.push(format!(
                "the allowed cycle {a:?} is gone (or changed): update ALLOWED in tests/module_graph.rs"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn scalar_imports_nothing_from_the_crate() {
    let g = Graph::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let bad: Vec<String> = g
        .edges
        .iter()
        .filter(|((from, to), _)| from.starts_with("src/scalar/") && !to.starts_with("src/scalar/"))
        .map(|((from, to), why)| format!("{from} -> {to}: {why}"))
        .collect();
    assert!(
        bad.is_empty(),
        "src/scalar/ must import nothing else from the crate:\n{}",
        bad.join("\n")
    );
}

/// The parser finds what it should: a graph with a known cycle, re-exports
/// and a facade, checked end to end.
#[test]
fn the_parser_sees_paths_uses_and_reexports() {
    let dir = std::env::temp_dir().join(format!("module_graph_{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let files: &[(&str, &str)] = &[
        (
            "lib.rs",
            "pub mod a;\npub mod b;\npub mod c;\npub use a::*;\n",
        ),
        ("a/mod.rs", "mod x;\nmod y;\npub use x::X;\npub use y::Y;\n"),
        (
            "a/x.rs",
            "// use crate::c::C; (a comment)\nuse super::y::Y;\npub struct X(Y);\n",
        ),
        ("a/y.rs", "pub struct Y;\nfn f() -> crate::X { todo!() }\n"),
        ("b.rs", "use crate::{c::C, value::V};\npub struct B(C);\n"),
        ("c.rs", "pub struct C;\nconst S: &str = \"crate::b::B\";\n"),
    ];
    for (p, text) in files {
        let p = dir.join(p);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    let g = Graph::load(&dir);
    let edges: BTreeSet<(String, String)> = g.edges.keys().cloned().collect();
    let want: BTreeSet<(String, String)> = [
        ("src/a/x.rs", "src/a/y.rs"),
        ("src/a/y.rs", "src/a/x.rs"), // `crate::X` is re-exported twice
        ("src/b.rs", "src/c.rs"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(edges, want);
    assert_eq!(
        g.cycles(),
        vec![vec!["src/a/x.rs".to_string(), "src/a/y.rs".to_string()]]
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// Files as nodes (named `src/…`), edges with the path that made them.
struct Graph {
    /// module path (`crate::storage::view`) → file
    modules: BTreeMap<String, String>,
    /// file → its code without comments and string contents
    code: BTreeMap<String, String>,
    edges: BTreeMap<(String, String), String>,
}

impl Graph {
    fn load(src: &Path) -> Graph {
        let mut g = Graph {
            modules: BTreeMap::new(),
            code: BTreeMap::new(),
            edges: BTreeMap::new(),
        };
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for e in fs::read_dir(&dir).unwrap() {
                let p: PathBuf = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    let rel = p
                        .strip_prefix(src)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/");
                    let name = format!("src/{rel}");
                    g.modules.insert(module_of(&rel), name.clone());
                    g.code.insert(name, strip(&fs::read_to_string(&p).unwrap()));
                }
            }
        }
        let files: Vec<(String, String)> = g
            .modules
            .iter()
            .map(|(m, f)| (m.clone(), f.clone()))
            .collect();
        for (module, file) in files {
            let code = g.code[&file].clone();
            for (path, is_reexport) in paths(&code) {
                if is_reexport {
                    continue;
                }
                let Some(abs) = g.absolute(&module, &path) else {
                    continue;
                };
                if EXTERNAL
                    .iter()
                    .any(|x| abs == *x || abs.starts_with(&format!("{x}::")))
                {
                    continue;
                }
                if let Some(target) = g.resolve(&abs, 0) {
                    if target != file && target != "src/lib.rs" {
                        g.edges.entry((file.clone(), target)).or_insert(path);
                    }
                }
            }
        }
        g
    }

    /// `path` as seen from `module`, made absolute (`crate::…`), or `None`
    /// for another crate.
    fn absolute(&self, module: &str, path: &str) -> Option<String> {
        let segs: Vec<&str> = path.split("::").collect();
        let mut m: Vec<&str> = module.split("::").collect();
        match segs[0] {
            "crate" => Some(path.to_string()),
            "self" | "super" => {
                let mut i = 0;
                while i < segs.len() && matches!(segs[i], "self" | "super") {
                    if segs[i] == "super" {
                        m.pop();
                    }
                    i += 1;
                }
                Some([m, segs[i..].to_vec()].concat().join("::"))
            }
            first => {
                // a use of a child module (2018 paths), else another crate
                let child = format!("{module}::{first}");
                self.modules
                    .contains_key(&child)
                    .then(|| format!("{module}::{path}"))
            }
        }
    }

    /// The file that defines what `abs` names, following re-exports.
    fn resolve(&self, abs: &str, depth: usize) -> Option<String> {
        let segs: Vec<&str> = abs.split("::").collect();
        let k = (1..=segs.len())
            .rev()
            .find(|&k| self.modules.contains_key(&segs[..k].join("::")))?;
        let module = segs[..k].join("::");
        let file = self.modules[&module].clone();
        let Some(item) = segs.get(k) else {
            return Some(file);
        };
        if depth > 8 || defines(&self.code[&file], item) {
            return Some(file);
        }
        for (path, _) in paths(&self.code[&file]).into_iter().filter(|p| p.1) {
            let last = path.rsplit("::").next().unwrap_or_default();
            let glob = last == "*";
            if !(glob || last == *item) {
                continue;
            }
            let base = if glob {
                path.trim_end_matches("::*").to_string()
            } else {
                path.clone()
            };
            let Some(target) = self.absolute(&module, &base) else {
                continue;
            };
            if EXTERNAL.iter().any(|x| target.starts_with(x)) {
                continue;
            }
            let target = if glob {
                format!("{target}::{item}")
            } else {
                target
            };
            if let Some(f) = self.resolve(&target, depth + 1) {
                if !glob || defines(&self.code[&f], item) {
                    return Some(f);
                }
            }
        }
        Some(file)
    }

    /// Strongly connected components with more than one file, sorted.
    fn cycles(&self) -> Vec<Vec<String>> {
        let nodes: Vec<&String> = self.code.keys().collect();
        let reach = |from: &String| -> BTreeSet<String> {
            let mut seen = BTreeSet::new();
            let mut todo = vec![from.clone()];
            while let Some(n) = todo.pop() {
                for (a, b) in self.edges.keys() {
                    if *a == n && seen.insert(b.clone()) {
                        todo.push(b.clone());
                    }
                }
            }
            seen
        };
        let reaches: BTreeMap<&String, BTreeSet<String>> =
            nodes.iter().map(|n| (*n, reach(n))).collect();
        let mut out: BTreeSet<Vec<String>> = BTreeSet::new();
        for n in &nodes {
            let scc: Vec<String> = nodes
                .iter()
                .filter(|m| reaches[*n].contains(**m) && reaches[**m].contains(*n))
                .map(|m| (*m).clone())
                .collect();
            if scc.len() > 1 {
                out.insert(scc);
            }
        }
        out.into_iter().collect()
    }

    /// The edges inside a cycle, with the path that makes each.
    fn explain(&self, scc: &[String]) -> String {
        self.edges
            .iter()
            .filter(|((a, b), _)| scc.contains(a) && scc.contains(b))
            .map(|((a, b), why)| format!("  {a} -> {b}  ({why})"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// `src/storage/view.rs` → `crate::storage::view`.
fn module_of(rel: &str) -> String {
    let mut parts: Vec<&str> = rel.trim_end_matches(".rs").split('/').collect();
    if matches!(parts.last(), Some(&"mod") | Some(&"lib")) {
        parts.pop();
    }
    std::iter::once("crate")
        .chain(parts)
        .collect::<Vec<_>>()
        .join("::")
}

/// Whether the code defines `item` (not only re-exports it).
fn defines(code: &str, item: &str) -> bool {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'))
        .collect::<Vec<_>>()
        .windows(2)
        .any(|w| {
            matches!(
                w[0],
                "struct"
                    | "enum"
                    | "trait"
                    | "type"
                    | "fn"
                    | "const"
                    | "static"
                    | "union"
                    | "mod"
                    | "macro_rules!"
            ) && w[1] == item
        })
}

/// Every module path of the code: `(path, is_reexport)`, the leaves of
/// `use` trees expanded (`use a::{b, c::d}` → `a::b`, `a::c::d`) and
/// `crate::`/`super::`/`self::` paths in expressions and types.
fn paths(code: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while let Some(off) = code[i..].find("use ") {
        let start = i + off;
        i = start + 4;
        let before = code[..start].trim_end_matches([' ', '\t']);
        let at_line_start = before.is_empty()
            || before.ends_with('\n')
            || before.ends_with(';')
            || before.ends_with('{')
            || before.ends_with('}');
        let pub_use = before.ends_with("pub") || before.ends_with(')') && before.contains("pub(");
        let word_before =
            start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
        if word_before || !(at_line_start || pub_use) {
            continue;
        }
        let Some(end) = code[i..].find(';') else {
            break;
        };
        let tree = code[i..i + end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for leaf in expand(&tree) {
            out.push((leaf, pub_use));
        }
        i += end;
    }
    // paths in code (the `use` ones again: harmless, edges are a set)
    for head in ["crate::", "super::", "self::"] {
        let mut j = 0;
        while let Some(off) = code[j..].find(head) {
            let s = j + off;
            j = s + head.len();
            if s > 0
                && (bytes[s - 1].is_ascii_alphanumeric()
                    || bytes[s - 1] == b'_'
                    || bytes[s - 1] == b':'
                    || bytes[s - 1] == b'$')
            {
                continue;
            }
            let len = code[s..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(code.len() - s);
            let p = code[s..s + len].trim_end_matches(':');
            if !p.is_empty() && !in_use_tree(code, s) {
                out.push((p.to_string(), false));
            }
        }
    }
    out
}

/// Whether position `s` is inside a `use …;` statement (already counted).
fn in_use_tree(code: &str, s: usize) -> bool {
    let line_start = code[..s].rfind([';', '}', '{']).map_or(0, |k| k + 1);
    let stmt = code[line_start..s].trim_start();
    stmt.starts_with("use ") || stmt.starts_with("pub use ") || stmt.starts_with("pub(crate) use ")
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e` (aliases dropped).
fn expand(tree: &str) -> Vec<String> {
    fn go(prefix: &str, t: &str, out: &mut Vec<String>) {
        if let Some(open) = t.find('{') {
            let head = t[..open].trim();
            let inner = &t[open + 1..t.rfind('}').unwrap_or(t.len())];
            let mut depth = 0;
            let mut last = 0;
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        go(&format!("{prefix}{head}"), &inner[last..k], out);
                        last = k + 1;
                    }
                    _ => {}
                }
            }
            go(&format!("{prefix}{head}"), &inner[last..], out);
        } else if !t.trim().is_empty() {
            let t = t.trim().split(" as ").next().unwrap_or(t).trim();
            let full = format!("{prefix}{t}").replace(' ', "");
            let full = full.trim_end_matches("::self").to_string();
            out.push(full);
        }
    }
    let mut out = Vec::new();
    go("", tree, &mut out);
    out
}

/// The code without comments, and with string and char literals emptied
/// (so that `"crate::b::B"` is not a path).
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        if src[i..].starts_with("//") {
            i += src[i..].find('\n').unwrap_or(src.len() - i);
        } else if src[i..].starts_with("/*") {
            i += src[i..].find("*/").map_or(src.len() - i, |k| k + 2);
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // a char literal ('x', '\n', '\''); a lifetime has no closing quote
            let close = src[i + 2..].find('\'').map_or(b.len(), |k| i + 2 + k);
            i = close + 1;
            out.push_str("' '");
        } else {
            let c = src[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

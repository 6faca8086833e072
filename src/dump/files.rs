//! Dump files and directories (`std`): which file is what, grouped by
//! module, read one module at a time.

use std::fs;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;

use super::reader::{Item, Options, Reader};

/// Suffixes of the files `--xla_dump_to` writes beside a module's text.
const BUFFER_ASSIGNMENT: &str = "-buffer-assignment.txt";
const MEMORY_REPORT: &str = "-memory-usage-report.txt";

/// The module a dump file belongs to: its name without the suffix of its
/// kind (`module_0051.jit_f.cl_7.after_optimizations-buffer-assignment.txt`
/// → `module_0051.jit_f.cl_7.after_optimizations`).
///
/// ```
/// use tilelayout::dump::module_key;
/// assert_eq!(module_key("m.after_optimizations-buffer-assignment.txt"), "m.after_optimizations");
/// assert_eq!(module_key("m.after_optimizations.txt"), "m.after_optimizations");
/// ```
pub fn module_key(file_name: &str) -> &str {
    for suffix in [BUFFER_ASSIGNMENT, MEMORY_REPORT, ".txt"] {
        if let Some(k) = file_name.strip_suffix(suffix) {
            return k;
        }
    }
    file_name
}

/// Reads every line of `input` into `reader` (invalid UTF-8 is replaced,
/// never an error), then ends it.
///
/// # Errors
/// I/O errors of `input`.
pub fn read_stream<R: Read>(
    input: R,
    reader: &mut Reader,
    emit: &mut dyn FnMut(Item),
) -> io::Result<()> {
    let mut input = BufReader::with_capacity(1 << 16, input);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
        }
        match core::str::from_utf8(&buf) {
            Ok(line) => reader.line(line, emit),
            Err(_) => reader.line(&String::from_utf8_lossy(&buf), emit),
        }
    }
    reader.finish(emit);
    Ok(())
}

/// The report of dump files and directories, a module at a time.
///
/// A file is read whatever its kind (buffer assignment, HLO module text,
/// memory-usage report, or several concatenated). A directory is read one
/// module at a time: the buffer assignment when there is one (its values
/// carry the compiler's sizes), else the module text, with the compiler's
/// total from the memory-usage report beside it; other files are skipped.
///
/// # Errors
/// I/O errors (a missing path, an unreadable file).
pub fn read_paths(
    paths: &[PathBuf],
    options: Options,
    emit: &mut dyn FnMut(Item),
) -> io::Result<()> {
    for path in paths {
        if fs::metadata(path)?.is_dir() {
            read_dir(path, options, emit)?;
        } else {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let key = name.as_deref().map(|n| module_key(n).into());
            let mut reader = Reader::new(key, options);
            read_stream(fs::File::open(path)?, &mut reader, emit)?;
        }
    }
    Ok(())
}

#[derive(Default)]
struct Group {
    buffer_assignment: Option<PathBuf>,
    report: Option<PathBuf>,
    modules: Vec<PathBuf>,
}

fn read_dir(dir: &Path, options: Options, emit: &mut dyn FnMut(Item)) -> io::Result<()> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();
    let mut groups: std::collections::BTreeMap<String, Group> = Default::default();
    for name in names.iter().filter(|n| n.ends_with(".txt")) {
        let g = groups.entry(module_key(name).into()).or_default();
        let path = dir.join(name);
        if name.ends_with(BUFFER_ASSIGNMENT) {
            g.buffer_assignment = Some(path);
        } else if name.ends_with(MEMORY_REPORT) {
            g.report = Some(path);
        } else {
            g.modules.push(path);
        }
    }
    for (key, g) in groups {
        let mut reader = Reader::new(Some(key), options);
        if let Some(ba) = &g.buffer_assignment {
            read_stream(fs::File::open(ba)?, &mut reader, emit)?;
            continue;
        }
        if let Some(report) = &g.report {
            if let Some(total) = compiler_total(report)? {
                reader.set_compiler_total(total);
            }
        }
        for m in &g.modules {
            // `read_stream` ends the module; a group has one module text
            read_stream(fs::File::open(m)?, &mut reader, emit)?;
        }
    }
    Ok(())
}

/// `Total bytes used: N` from a memory-usage report.
fn compiler_total(path: &Path) -> io::Result<Option<u64>> {
    let file = BufReader::new(fs::File::open(path)?);
    for line in file.lines() {
        let line = line?;
        if let super::buffer_assignment::Line::Total(n) =
            super::buffer_assignment::parse_line(&line)
        {
            return Ok(Some(n));
        }
    }
    Ok(None)
}

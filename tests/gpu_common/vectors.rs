//! The maps TileFusion's and CuTe's own code compute (`tests/gpu_data/`,
//! each file's header says how they were produced), parsed.

/// TileFusion's maps (statics, not constants: [`sections`] keys its cache by
/// the text's address).
pub static TILEFUSION: &str = include_str!("../gpu_data/tilefusion.txt");
/// CuTe's maps.
pub static CUTE: &str = include_str!("../gpu_data/cute.txt");

/// One section: its header words and its lines.
pub struct Section<'a> {
    /// The header line, split on spaces (the first word is the kind).
    pub header: Vec<&'a str>,
    /// The lines up to the next header.
    pub lines: Vec<&'a str>,
}

impl Section<'_> {
    /// Header word `k` as a number.
    #[track_caller]
    pub fn num(&self, k: usize) -> usize {
        self.header[k].parse().expect("numeric header field")
    }
}

/// The sections of `kind` in `text`.
pub fn sections(text: &'static str, kind: &str) -> Vec<Section<'static>> {
    let out: Vec<Section<'static>> = all_sections(text)
        .iter()
        .filter(|s| s.header[0] == kind)
        .map(|s| Section {
            header: s.header.clone(),
            lines: s.lines.clone(),
        })
        .collect();
    assert!(!out.is_empty(), "no `{kind}` section");
    out
}

/// Every section of one of the two files, split once per test binary (the
/// TileFusion file is 450 KB: interpreted under Miri, a split takes
/// seconds).
fn all_sections(text: &'static str) -> &'static [Section<'static>] {
    use std::sync::OnceLock;
    static SPLIT: [OnceLock<Vec<Section<'static>>>; 2] = [OnceLock::new(), OnceLock::new()];
    let k = if core::ptr::eq(text, TILEFUSION) {
        0
    } else {
        assert!(core::ptr::eq(text, CUTE), "not one of the vector files");
        1
    };
    SPLIT[k].get_or_init(|| split(text))
}

/// Splits `text` into sections at the header lines.
fn split(text: &'static str) -> Vec<Section<'static>> {
    let kinds = [
        "shared",
        "g2s",
        "s2r",
        "g2r",
        "r2s",
        "swizzle",
        "mma_a_m16k16",
        "mma_b_n8k16",
        "mma_c_m16n8",
    ];
    let mut out: Vec<Section<'static>> = Vec::new();
    let mut current: Option<Section<'static>> = None;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let first = line.split(' ').next().unwrap_or("");
        if kinds.contains(&first) {
            if let Some(s) = current.take() {
                out.push(s);
            }
            current = Some(Section {
                header: line.split(' ').collect(),
                lines: Vec::new(),
            });
        } else if let Some(s) = current.as_mut() {
            s.lines.push(line);
        }
    }
    out.extend(current);
    out
}

/// The numbers of a line, separated by spaces, commas, `=` or `:`.
pub fn numbers(line: &str) -> Vec<i64> {
    line.split([' ', ',', '=', ':'])
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().expect("a number"))
        .collect()
}

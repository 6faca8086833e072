//! XLA's canonical printing (`Shape::ToString(print_layout=true)`,
//! `XlaLayout::ToString`), in `const fn` into a [`TextBuf`].
//!
//! Rules (XLA's printing): lowercase type; dims joined by `,`; `{minor_to_major}`
//! then `:` and only the attributes that differ from their defaults, in the
//! order `T L # * E S SC M`; a scalar prints no `{}` unless it has
//! attributes; `D(…)` was dropped by the parser; `token[]`/`opaque[]` print
//! no layout.

use crate::shape::{Dim, Shape, Tile, TileDim, XlaLayout};
use crate::text::TextBuf;

/// Capacity that holds the canonical text of any shape within the limits.
pub const MAX_TEXT: usize = 4608;

/// Writes one tile, `(8,128)`, `(2,*,128)`.
pub const fn write_tile<const N: usize>(t: &mut TextBuf<N>, tile: &Tile) {
    t.push_ascii(b'(');
    let mut i = 0;
    while i < tile.rank() {
        if i > 0 {
            t.push_ascii(b',');
        }
        match tile.dim(i) {
            TileDim::Size(n) => t.push_u64(n),
            TileDim::Combine => t.push_ascii(b'*'),
        }
        i += 1;
    }
    t.push_ascii(b')');
}

/// Writes the part after `:` (nothing if every attribute is default).
pub const fn write_attributes<const N: usize>(t: &mut TextBuf<N>, l: &XlaLayout) {
    let tiles = l.tiles();
    if !tiles.is_empty() {
        t.push_ascii(b'T');
        let mut i = 0;
        while i < tiles.len() {
            write_tile(t, &tiles[i]);
            i += 1;
        }
    }
    if l.tail_padding_alignment_in_elements != 1 {
        t.push_str("L(");
        t.push_u64(l.tail_padding_alignment_in_elements);
        t.push_ascii(b')');
    }
    if let Some(ty) = l.index_primitive_type {
        t.push_str("#(");
        t.push_str(ty.name());
        t.push_ascii(b')');
    }
    if let Some(ty) = l.pointer_primitive_type {
        t.push_str("*(");
        t.push_str(ty.name());
        t.push_ascii(b')');
    }
    if l.element_size_in_bits != 0 {
        t.push_str("E(");
        t.push_u64(l.element_size_in_bits);
        t.push_ascii(b')');
    }
    if l.memory_space != 0 {
        t.push_str("S(");
        t.push_i64(l.memory_space as i64);
        t.push_ascii(b')');
    }
    let scs = l.split_configs();
    if !scs.is_empty() {
        t.push_str("SC");
        let mut i = 0;
        while i < scs.len() {
            t.push_ascii(b'(');
            t.push_u64(scs[i].dimension);
            t.push_ascii(b':');
            let idx = scs[i].indices();
            let mut j = 0;
            while j < idx.len() {
                if j > 0 {
                    t.push_ascii(b',');
                }
                t.push_u64(idx[j]);
                j += 1;
            }
            t.push_ascii(b')');
            i += 1;
        }
    }
    if l.dynamic_shape_metadata_prefix_bytes > 0 {
        t.push_str("M(");
        t.push_u64(l.dynamic_shape_metadata_prefix_bytes);
        t.push_ascii(b')');
    }
}

/// Writes a layout as XLA's `XlaLayout::ToString` does: `{1,0:T(8,128)(2,1)}`.
pub const fn write_layout<const N: usize>(t: &mut TextBuf<N>, l: &XlaLayout) {
    t.push_ascii(b'{');
    let m = l.minor_to_major();
    let mut i = 0;
    while i < m.len() {
        if i > 0 {
            t.push_ascii(b',');
        }
        t.push_i64(m[i]);
        i += 1;
    }
    if l.has_attributes() {
        t.push_ascii(b':');
        write_attributes(t, l);
    }
    t.push_ascii(b'}');
}

/// Writes `type[dims]` without a layout.
pub const fn write_shape_no_layout<const N: usize>(t: &mut TextBuf<N>, s: &Shape) {
    t.push_str(s.element_type().name());
    t.push_ascii(b'[');
    let dims = s.dims();
    let mut i = 0;
    while i < dims.len() {
        if i > 0 {
            t.push_ascii(b',');
        }
        match dims[i] {
            Dim::Static(n) => t.push_u64(n),
            Dim::Bounded(n) => {
                t.push_str("<=");
                t.push_u64(n);
            }
            Dim::Unbounded => t.push_ascii(b'?'),
        }
        i += 1;
    }
    t.push_ascii(b']');
}

/// Writes a shape with its layout, exactly as XLA prints it.
pub const fn write_shape<const N: usize>(t: &mut TextBuf<N>, s: &Shape) {
    write_shape_no_layout(t, s);
    if !s.element_type().is_array_type() {
        return;
    }
    if s.rank() == 0 && !s.layout().has_attributes() && s.layout().minor_to_major().is_empty() {
        return;
    }
    write_layout(t, s.layout());
}

impl Shape {
    /// XLA's canonical text, built in `const fn`.
    ///
    /// ```
    /// use tilelayout::value::parse_shape;
    /// const S: tilelayout::value::Shape = match parse_shape("F32[3,5]{1,0:T(2,2)S(0)}") {
    ///     Ok(s) => s,
    ///     Err(_) => panic!(),
    /// };
    /// const TEXT: tilelayout::value::TextBuf<64> = S.canonical();
    /// assert_eq!(TEXT.as_str(), "f32[3,5]{1,0:T(2,2)}");
    /// ```
    pub const fn canonical<const N: usize>(&self) -> TextBuf<N> {
        let mut t = TextBuf::new();
        write_shape(&mut t, self);
        t
    }

    /// The text without the layout: `f32[<=23,44,<=55]`.
    pub const fn canonical_without_layout<const N: usize>(&self) -> TextBuf<N> {
        let mut t = TextBuf::new();
        write_shape_no_layout(&mut t, self);
        t
    }
}

impl XlaLayout {
    /// XLA's `XlaLayout::ToString`, built in `const fn`.
    pub const fn canonical<const N: usize>(&self) -> TextBuf<N> {
        let mut t = TextBuf::new();
        write_layout(&mut t, self);
        t
    }
}

impl core::fmt::Display for Shape {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.canonical::<MAX_TEXT>().as_str())
    }
}

impl core::fmt::Display for XlaLayout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.canonical::<MAX_TEXT>().as_str())
    }
}

impl core::fmt::Display for Tile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut t = TextBuf::<{ 16 * 21 + 2 }>::new();
        write_tile(&mut t, self);
        f.write_str(t.as_str())
    }
}

// No tiles, the default order, and attributes: `L`, `S` and a string literal.
use tilelayout::{layout, Attrs, Descending, Layout, Dims, Tiled, Untiled, F32, S8, T};

fn same_untiled(l: layout!(f32[3,5])) -> Untiled<F32, Dims<3, 5>> {
    l
}

fn same_attrs(
    l: layout!(r"s8[5,300]{1,0:T(8,128)(4,1)L(1024)S(1)}"),
) -> Tiled<S8, Dims<5, 300>, (T<8, 128>, T<4, 1>), Descending, Attrs<1024, 0, 1>> {
    l
}

fn main() {
    let _ = same_untiled(Default::default());
    let _ = same_attrs(Default::default());
    type A = layout!(f32[3,5]{1,0});
    assert_eq!(A::TEXT, "f32[3,5]{1,0}");
    assert_eq!(A::offset([2, 3]), 13);
}

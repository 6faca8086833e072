//! Every logical coordinate of an array, shared by the fuzz checks and the
//! relayout agreement tests (`tests/relayout_common`).

/// Every logical coordinate of `dims`, row-major.
pub fn coords(dims: &[u64]) -> Vec<Vec<u64>> {
    let n: u64 = dims.iter().product();
    let mut out = Vec::with_capacity(n as usize);
    let mut c = vec![0u64; dims.len()];
    for _ in 0..n {
        out.push(c.clone());
        for d in (0..dims.len()).rev() {
            c[d] += 1;
            if c[d] < dims[d] {
                break;
            }
            c[d] = 0;
        }
    }
    out
}

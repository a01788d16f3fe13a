//! Empty: this package only names Perfetto's `.proto` files (see
//! `Cargo.toml`).

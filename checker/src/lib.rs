//! `dakon-check`: the independent checker of `dakon` proof certificates (format:
//! `tables/CERTIFICATES.md`). It shares no code with `dakon-solver`: it has its own plain
//! [`rules`], written from the text one seed at a time.

pub mod rules;

//! Nodes as they are found (SEMANTICS §13): their hardware — NICs, bonds,
//! disks, memory, CPUs, the machine — read from the facts operators
//! already have (Ansible's `setup`, Ironic's inspection), told apart by
//! content, every problem with the file and host it comes from.

pub mod ansible;
pub mod declare;
pub mod import;
pub mod ironic;
pub mod matching;
pub mod merge;
pub mod model;
pub mod place;
pub mod read;
pub mod view;

pub use model::{
    Disk, Found, FoundBond, FoundNic, Hardware, HardwareSource, HardwareStamp, LinkState, Lldp,
    NodeHardware, ReadProblem, System,
};
pub use read::{read, read_value};

#[cfg(test)]
mod tests;

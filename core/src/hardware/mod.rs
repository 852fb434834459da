//! Nodes as they are found (SEMANTICS §13): their hardware — NICs, bonds,
//! disks, memory, CPUs, the machine — read from the facts operators
//! already have (Ansible's `setup`, Ironic's inspection), told apart by
//! content, every problem with the file and host it comes from. How an
//! import meets an environment's nodes is `crate::node_import`'s.

pub mod ansible;
pub mod declare;
pub mod ironic;
pub mod model;
pub mod read;
pub mod view;

pub use model::{
    Disk, Found, FoundBond, FoundNic, Hardware, HardwareSource, HardwareStamp, LinkState, Lldp,
    NodeHardware, ReadProblem, System,
};
pub use read::{hidden, read, read_value};

#[cfg(test)]
mod tests;

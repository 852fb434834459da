//! `Var<T>`: a reactive value, as the app uses Leptos's `RwSignal` — read
//! (tracked or not), set, updated — with one Leptos type behind every
//! value type: each holds its value in a slot of one table, and an
//! `ArcTrigger` tells Leptos's effects and memos when it changed.
//!
//! Why: each value type of an `RwSignal` is its own copy of the signal
//! machinery in the download (reading, tracking, updating, the arena),
//! about 1.5 KB of WebAssembly per type for some twenty types; here the
//! only code per type is the value's own (clone, drop). A value only ever
//! read untracked (what Leptos's `StoredValue` is for) is a `Var` too.
//!
//! Like an `RwSignal`, a `Var` is `Copy`, belongs to the reactive owner it
//! was made under and is dropped with it; using it after that is a bug
//! (it panics, as Leptos's signals do), except for [`Var::try_set`], which
//! async work finishing after its page is gone uses.

use std::any::Any;
use std::cell::RefCell;
use std::marker::PhantomData;
use std::rc::Rc;

use leptos::prelude::{ArcTrigger, Notify, Track, on_cleanup};

/// A reactive value of type `T` (see the module's documentation).
pub struct Var<T> {
    index: u32,
    generation: u32,
    value: PhantomData<fn() -> T>,
}

impl<T> Clone for Var<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Var<T> {}

impl<T> std::fmt::Debug for Var<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Var({}.{})", self.index, self.generation)
    }
}

/// What one slot holds: the value and what tracks it.
struct Slot {
    value: RefCell<Box<dyn Any>>,
    trigger: ArcTrigger,
}

/// Every `Var`'s slot, by index; a freed slot's generation moves on, so
/// that a `Var` of the freed value finds it gone.
#[derive(Default)]
struct Table {
    slots: Vec<(u32, Option<Rc<Slot>>)>,
    free: Vec<u32>,
}

thread_local! {
    static TABLE: RefCell<Table> = RefCell::default();
}

/// Stores a value, freed when the current reactive owner is cleaned up.
fn insert(value: Box<dyn Any>) -> (u32, u32) {
    let slot = Rc::new(Slot {
        value: RefCell::new(value),
        trigger: ArcTrigger::new(),
    });
    let (index, generation) = TABLE.with(|table| {
        let mut table = table.borrow_mut();
        match table.free.pop() {
            Some(index) => {
                let entry = &mut table.slots[index as usize];
                *entry = (entry.0.wrapping_add(1), Some(slot));
                (index, entry.0)
            }
            None => {
                table.slots.push((0, Some(slot)));
                ((table.slots.len() - 1) as u32, 0)
            }
        }
    });
    on_cleanup(move || remove(index, generation));
    (index, generation)
}

fn remove(index: u32, generation: u32) {
    // Taken out first: dropping the value may run code that uses the table.
    let removed = TABLE.with(|table| {
        let mut table = table.borrow_mut();
        let entry = &mut table.slots[index as usize];
        if entry.0 != generation || entry.1.is_none() {
            return None; // freed already: never on the free list twice
        }
        let slot = entry.1.take();
        table.free.push(index);
        slot
    });
    drop(removed);
}

/// The slot of a `Var`, while its value is there.
fn slot(index: u32, generation: u32) -> Option<Rc<Slot>> {
    TABLE.with(|table| match table.borrow().slots.get(index as usize) {
        Some((g, Some(slot))) if *g == generation => Some(slot.clone()),
        _ => None,
    })
}

#[track_caller]
fn gone() -> ! {
    panic!("a reactive value was used after its owner was cleaned up")
}

impl<T: 'static> Var<T> {
    pub fn new(value: T) -> Var<T> {
        let (index, generation) = insert(Box::new(value));
        Var {
            index,
            generation,
            value: PhantomData,
        }
    }

    fn slot(&self) -> Option<Rc<Slot>> {
        slot(self.index, self.generation)
    }

    /// Makes the running effect or memo depend on it.
    pub fn track(&self) {
        if let Some(slot) = self.slot() {
            slot.trigger.track();
        }
    }

    /// Reads it without tracking.
    #[track_caller]
    pub fn with_untracked<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        self.read(false, f)
    }

    /// Reads it, tracked.
    #[track_caller]
    pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        self.read(true, f)
    }

    /// One look-up of the slot for both the tracking and the reading.
    #[track_caller]
    fn read<R>(&self, tracked: bool, f: impl FnOnce(&T) -> R) -> R {
        let Some(slot) = self.slot() else { gone() };
        if tracked {
            slot.trigger.track();
        }
        let value = slot.value.borrow();
        match value.downcast_ref::<T>() {
            Some(value) => f(value),
            None => gone(),
        }
    }

    /// Changes it and tells what depends on it; `false` when it is gone.
    fn try_update(&self, f: impl FnOnce(&mut T)) -> bool {
        let Some(slot) = self.slot() else {
            return false;
        };
        {
            let mut value = slot.value.borrow_mut();
            let Some(value) = value.downcast_mut::<T>() else {
                return false;
            };
            f(value);
        }
        slot.trigger.notify();
        true
    }

    #[track_caller]
    pub fn update(&self, f: impl FnOnce(&mut T)) {
        if !self.try_update(f) {
            gone();
        }
    }

    #[track_caller]
    pub fn set(&self, value: T) {
        self.update(|v| *v = value);
    }

    /// Sets it unless it is gone (then gives the value back).
    pub fn try_set(&self, value: T) -> Option<T> {
        let mut value = Some(value);
        self.try_update(|v| *v = value.take().expect("set once"));
        value
    }
}

impl<T: Clone + 'static> Var<T> {
    #[track_caller]
    pub fn get(&self) -> T {
        self.with(T::clone)
    }

    #[track_caller]
    pub fn get_untracked(&self) -> T {
        self.with_untracked(T::clone)
    }
}

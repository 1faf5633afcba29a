//! Arenas of entities addressed by small copyable index types, in the style
//! of `cranelift-entity` (which the IR deliberately does not import).

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A small index type naming one entity in an [`Arena`].
pub trait EntityRef: Copy + Eq {
    fn new(index: usize) -> Self;
    fn index(self) -> usize;
}

/// Defines a `u32` newtype implementing [`EntityRef`] that prints as
/// `{prefix}{index}` (`v3`, `b0`, …).
#[macro_export]
macro_rules! entity {
    ($(#[$attr:meta])* $name:ident, $prefix:expr) => {
        $(#[$attr])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub struct $name(u32);

        impl $crate::entity::EntityRef for $name {
            fn new(index: usize) -> Self {
                $name(u32::try_from(index).expect("entity index overflows u32"))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
    };
}

/// A growable vector of entities of type `V`, addressed by keys of type `K`.
#[derive(Clone, Debug, PartialEq)]
pub struct Arena<K, V> {
    items: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> Arena<K, V> {
    pub fn new() -> Self {
        Arena {
            items: Vec::new(),
            _key: PhantomData,
        }
    }

    // Inlined by request: it is on every construction path, and LLVM's
    // heuristics stopped inlining it once more arenas instantiated it
    // (+4 M instructions on Ullrich's program).
    #[inline]
    pub fn push(&mut self, value: V) -> K {
        let key = K::new(self.items.len());
        self.items.push(value);
        key
    }

    pub fn reserve(&mut self, additional: usize) {
        self.items.reserve(additional);
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn keys(&self) -> impl Iterator<Item = K> {
        (0..self.items.len()).map(K::new)
    }

    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.items.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityRef, V> Default for Arena<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V> Index<K> for Arena<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        &self.items[key.index()]
    }
}

impl<K: EntityRef, V> IndexMut<K> for Arena<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        &mut self.items[key.index()]
    }
}

/// Side data for the entities of an [`Arena`], with a default for keys
/// never written.
#[derive(Clone, Debug, PartialEq)]
pub struct SecondaryMap<K, V: Clone> {
    items: Vec<V>,
    default: V,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    pub fn with_default(default: V) -> Self {
        SecondaryMap {
            items: Vec::new(),
            default,
            _key: PhantomData,
        }
    }

    /// Room for keys below `capacity` without growing again.
    pub fn with_capacity(capacity: usize, default: V) -> Self {
        SecondaryMap {
            items: Vec::with_capacity(capacity),
            default,
            _key: PhantomData,
        }
    }

    pub fn get(&self, key: K) -> &V {
        self.items.get(key.index()).unwrap_or(&self.default)
    }

    /// Takes the entry out, leaving the default; never grows the map.
    pub fn take(&mut self, key: K) -> V {
        match self.items.get_mut(key.index()) {
            Some(v) => std::mem::replace(v, self.default.clone()),
            None => self.default.clone(),
        }
    }
}

impl<K: EntityRef, V: Clone + Default> SecondaryMap<K, V> {
    pub fn new() -> Self {
        Self::with_default(V::default())
    }
}

impl<K: EntityRef, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V: Clone> Index<K> for SecondaryMap<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        self.get(key)
    }
}

impl<K: EntityRef, V: Clone> IndexMut<K> for SecondaryMap<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        let i = key.index();
        if i >= self.items.len() {
            self.items.resize(i + 1, self.default.clone());
        }
        &mut self.items[i]
    }
}

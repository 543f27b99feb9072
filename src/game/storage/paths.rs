//! The names of what the program keeps in the save folder besides the named saves: the
//! autosave folder, and the one autosave file of older versions. Autosaving, listing and
//! checking save names all take them from here.

/// The folder of autosaves, in the save folder.
pub const AUTOSAVE_DIR: &str = "autosave";
/// The single autosave file of older versions, in the save folder: listed, and continued like
/// any autosave.
pub const LEGACY_AUTOSAVE: &str = "autosave.json";

//! A finished online game in review, over online play: the local game's own review
//! (analysis, side lines, comments, saving), a [`LocalGame`] of its own opened on the
//! downloaded record. Online play stays under it, connected; `q` or Esc in the review (as
//! leaving a local game: a game changed since asks first) closes this layer and shows the
//! list of the player's games again.

use std::path::PathBuf;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::game::Game;
use crate::tui::component::{Component, Context, Outcome, Routed, RuntimeEvent};
use crate::tui::input::{Action, Mode};
use crate::tui::local_game::{Config, LocalGame};
use crate::tui::session::{Session, Storage};
use crate::tui::storage_jobs::Done;

/// A finished online game in the local game's review.
pub(in crate::tui::app) struct OnlineReview {
    game: LocalGame,
}

impl OnlineReview {
    /// `record` in review, saved (if the player saves it) in `save_dir`; what its start
    /// asks of the world.
    pub(in crate::tui::app) fn open(
        record: Game,
        save_dir: Option<PathBuf>,
        cx: &Context,
    ) -> (OnlineReview, Outcome) {
        let config = Config {
            preset: record.preset().unwrap_or_default(),
            resume: Some(Session::from_game(record)),
            skip_setup: true,
            storage: Storage {
                save_dir,
                ..Storage::default()
            },
            look: cx.look.clone(),
            settings: *cx.settings,
            ..Config::default()
        };
        let mut game = LocalGame::new(config, false, cx.jobs.clone());
        // The server keeps it: leaving asks nothing until it is changed here.
        game.mark_kept();
        let size = cx.size;
        let resized = Component::update(
            &mut game,
            Action::Resize {
                width: size.width,
                height: size.height,
            },
            cx,
        );
        (OnlineReview { game }, resized)
    }

    /// Whether Esc leaves the review: in it, with nothing over it to close and no analysis
    /// to stop first (there the game takes it).
    fn esc_leaves(&self) -> bool {
        Component::mode(&self.game) == Mode::Review && !self.game.analyzing()
    }
}

impl Component for OnlineReview {
    fn update(&mut self, action: Action, cx: &Context) -> Outcome {
        let action = match action {
            // The local game's screens to start another game are not reached from here.
            Action::NewGame | Action::Load | Action::Puzzles => return Outcome::stay(),
            Action::Cancel if self.esc_leaves() => Action::Quit,
            other => other,
        };
        let outcome = Component::update(&mut self.game, action, cx);
        self.carried(outcome)
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        Component::draw(&self.game, area, buf, cx);
    }

    fn mode(&self) -> Mode {
        Component::mode(&self.game)
    }

    fn on_event(&mut self, event: RuntimeEvent, cx: &Context) -> Routed {
        let its_own = match &event {
            RuntimeEvent::Engine(report) => self.game.awaits_report(report),
            RuntimeEvent::Stored(Done::OnlineRemembered(_) | Done::OnlineSaved { .. })
            | RuntimeEvent::Net(_)
            | RuntimeEvent::Judged { .. } => false,
            RuntimeEvent::Stored(_) => true,
        };
        if !its_own {
            return Routed::Passed(event);
        }
        match self.game.on_event(event, cx) {
            Routed::Taken(outcome) => Routed::Taken(self.carried(outcome)),
            passed @ Routed::Passed(_) => passed,
        }
    }

    fn tick(&mut self, cx: &Context) -> Outcome {
        let outcome = Component::tick(&mut self.game, cx);
        self.carried(outcome)
    }

    fn next_tick(&self) -> Option<Instant> {
        Component::next_tick(&self.game)
    }

    fn resized(&mut self, cx: &Context) {
        let size = cx.size;
        let resize = Action::Resize {
            width: size.width,
            height: size.height,
        };
        let _ = Component::update(&mut self.game, resize, cx);
    }

    fn awaits_storage(&self) -> bool {
        Component::awaits_storage(&self.game)
    }

    fn covers_screen(&self) -> bool {
        true
    }

    #[cfg(test)]
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

impl OnlineReview {
    /// What the game's `outcome` comes to here: its effects; the game's requests and layers
    /// are those of a local game's menus, not reached from here; the layer closes when the
    /// game is left (as a local game quits).
    fn carried(&mut self, outcome: Outcome) -> Outcome {
        let effects = Outcome::stay().and_effects(outcome.effects);
        if self.game.should_quit() {
            effects.and_close()
        } else {
            effects
        }
    }

    /// The game in review, for a test to look into.
    #[cfg(test)]
    pub(in crate::tui::app) const fn game(&self) -> &LocalGame {
        &self.game
    }
}

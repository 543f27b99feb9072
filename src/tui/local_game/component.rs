//! The local game on the [`Component`] contract: the app routes to it what no layer over it
//! takes, and draws it under them.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::LocalGame;
use crate::tui::component::{Component, Context, Outcome, Routed, RuntimeEvent};
use crate::tui::input::{Action, Mode};

impl LocalGame {
    /// `effects` with what the game asked of the app since.
    fn outcome(&mut self, effects: Vec<crate::tui::effect::Effect>) -> Outcome {
        let requests = self.take_requests();
        Outcome {
            requests,
            ..Outcome::default()
        }
        .and_effects(effects)
    }
}

impl Component for LocalGame {
    fn update(&mut self, action: Action, _cx: &Context) -> Outcome {
        let effects = LocalGame::update(self, action);
        self.outcome(effects)
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, _cx: &Context) {
        LocalGame::draw(self, area, buf);
    }

    fn mode(&self) -> Mode {
        LocalGame::mode(self)
    }

    fn on_event(&mut self, event: RuntimeEvent, cx: &Context) -> Routed {
        let effects = match event {
            RuntimeEvent::Engine(report) => self.on_report(report, cx.now),
            RuntimeEvent::Stored(done) => self.on_stored(done),
            other @ (RuntimeEvent::Net(_) | RuntimeEvent::Judged { .. }) => {
                return Routed::Passed(other);
            }
        };
        Routed::Taken(self.outcome(effects))
    }

    fn tick(&mut self, cx: &Context) -> Outcome {
        let effects = LocalGame::tick(self, cx.now);
        self.outcome(effects)
    }

    fn next_tick(&self) -> Option<Instant> {
        LocalGame::next_tick(self)
    }

    fn covers_screen(&self) -> bool {
        true
    }
}

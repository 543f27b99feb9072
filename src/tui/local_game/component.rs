//! The local game on the [`Component`] contract: the app routes to it what no layer over it
//! takes (actions, reports of the world, requests of the layers as they close), and draws it
//! under them.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::LocalGame;
use crate::tui::component::{Component, Context, Outcome, Request, Routed, RuntimeEvent};
use crate::tui::effect::Effect;
use crate::tui::input::{Action, Mode};

impl LocalGame {
    /// `effects` with what the game asked of the app since, and the layers it opened.
    fn outcome(&mut self, effects: Vec<Effect>) -> Outcome {
        let requests = self.take_requests();
        Outcome {
            requests,
            push: self.take_opened(),
            ..Outcome::default()
        }
        .and_effects(effects)
    }

    /// Takes from `cx` what the app told: the screen's size and the time.
    /// Carries out `request`, made by a layer over the game (as it closed, mostly) or by the
    /// app.
    pub(in crate::tui) fn on_request(&mut self, request: Request, cx: &Context) -> Outcome {
        self.told(cx);
        self.grant(request);
        let effects = self.take_effects();
        self.outcome(effects)
    }

    fn told(&mut self, cx: &Context) {
        self.size = cx.size;
        self.set_now(cx.now);
    }
}

impl Component for LocalGame {
    fn update(&mut self, action: Action, cx: &Context) -> Outcome {
        self.told(cx);
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
        self.told(cx);
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
        self.told(cx);
        let effects = LocalGame::tick(self, cx.now);
        self.outcome(effects)
    }

    fn next_tick(&self) -> Option<Instant> {
        LocalGame::next_tick(self)
    }

    fn awaits_storage(&self) -> bool {
        LocalGame::awaits_storage(self)
    }

    fn covers_screen(&self) -> bool {
        true
    }
}

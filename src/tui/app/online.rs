//! Online play as a layer over the local game: a thin adapter putting [`Online`] on the
//! [`Component`] contract. Its actions, the client's reports, the engine's reports on its
//! jobs, the storage thread's answers about it and the clock's ticks are handed to it, each
//! returning what it asks of the world; leaving it quits, or goes back to the new-game form
//! under it.

#[cfg(test)]
mod club_tests;
mod review;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::tui::component::{Component, Context, Outcome, Request, Routed, RuntimeEvent};
use crate::tui::input::{Action, Mode};
use crate::tui::online::assist::Assist;
use crate::tui::online::{Online, OnlineStart};
use crate::tui::online_memory::OnlineMemory;
use crate::tui::storage_jobs::Done;
pub(super) use review::OnlineReview;

/// Online play, and where leaving it goes.
pub(super) struct OnlineLayer {
    online: Box<Online>,
    /// Whether the new-game form is under it (else leaving it quits).
    from_setup: bool,
}

impl OnlineLayer {
    /// Online play as the command line starts it (`brandubh online HOST`).
    pub(super) fn new(start: OnlineStart, now: Instant) -> OnlineLayer {
        OnlineLayer {
            online: Box::new(Online::new(start, now)),
            from_setup: false,
        }
    }

    /// Online play from the new-game screen: asks for a server.
    pub(super) fn from_setup(
        dir: PathBuf,
        save_dir: Option<PathBuf>,
        memory: OnlineMemory,
        now: Instant,
    ) -> OnlineLayer {
        OnlineLayer {
            online: Box::new(Online::choose_server(dir, save_dir, memory, now)),
            from_setup: true,
        }
    }

    /// What it asks at its start, with the local game's warnings, bell and engine help.
    pub(super) fn started(&mut self, cx: &Context) -> Outcome {
        let settings = cx.settings;
        let assist = Assist::new(settings.warnings, settings.bell, cx.look.glyphs.repeat);
        Outcome::stay().and_effects(self.online.started(assist, cx.jobs))
    }

    /// `outcome`, and over this layer the review of a finished game online play has
    /// downloaded, if it has.
    fn with_review(&mut self, outcome: Outcome, cx: &Context) -> Outcome {
        let Some(record) = self.online.take_review() else {
            return outcome;
        };
        let (review, opened) = OnlineReview::open(record, self.online.save_dir(), cx);
        let Outcome { effects, .. } = opened;
        outcome.and_effects(effects).and_push(review)
    }

    /// Online play, for a test to look into.
    #[cfg(test)]
    pub(super) fn online(&self) -> &Online {
        &self.online
    }

    /// Online play, for a test to change.
    #[cfg(test)]
    pub(super) fn online_mut(&mut self) -> &mut Online {
        &mut self.online
    }
}

impl Component for OnlineLayer {
    fn update(&mut self, action: Action, cx: &Context) -> Outcome {
        let mut outcome = Outcome::stay().and_effects(self.online.update(action, cx));
        let assist = self.online.assist();
        let toggles = (assist.warnings().on(), assist.bell());
        if toggles != (cx.settings.warnings, cx.settings.bell) {
            // Toggled online: remembered as the local game's toggles are.
            let mut settings = *cx.settings;
            (settings.warnings, settings.bell) = toggles;
            outcome = outcome.and_ask(Request::Remember(settings));
        }
        outcome = self.with_review(outcome, cx);
        if self.online.is_closed() {
            let back = if self.from_setup {
                Request::SetupAgain
            } else {
                Request::Quit
            };
            outcome = outcome.and_close().and_ask(back);
        }
        outcome
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        self.online.render(area, buf, cx.look);
    }

    fn mode(&self) -> Mode {
        self.online.mode()
    }

    fn on_event(&mut self, event: RuntimeEvent, cx: &Context) -> Routed {
        let effects = match event {
            RuntimeEvent::Net(event) => self.online.on_net(event, cx),
            RuntimeEvent::Engine(report) => match self.online.on_report(&report, cx) {
                Some(effects) => effects,
                None => return Routed::Passed(RuntimeEvent::Engine(report)),
            },
            RuntimeEvent::Stored(Done::OnlineRemembered(result)) => {
                self.online.remembered(&result);
                Vec::new()
            }
            RuntimeEvent::Stored(Done::OnlineSaved { game, result }) => {
                self.online.saved(game, &result);
                Vec::new()
            }
            other => return Routed::Passed(other),
        };
        Routed::Taken(self.with_review(Outcome::stay().and_effects(effects), cx))
    }

    fn tick(&mut self, cx: &Context) -> Outcome {
        Outcome::stay().and_effects(self.online.tick(cx))
    }

    fn next_tick(&self) -> Option<Instant> {
        self.online.next_tick()
    }

    fn covers_screen(&self) -> bool {
        true
    }

    #[cfg(test)]
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }

    #[cfg(test)]
    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }
}

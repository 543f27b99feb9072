//! The app's side of online play: the online screen opened, its actions, the client's
//! reports and the clock's ticks handed to it, and what it asks turned into effects.

#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::time::Instant;

use super::{App, Screen};
use crate::ai::Report;
use crate::net::client;
use crate::tui::effect::Effect;
use crate::tui::input::Action;
use crate::tui::online::assist::Assist;
use crate::tui::online::{Online, OnlineStart};
use crate::tui::warnings::Warnings;

impl App {
    /// Opens online play as `start` says (from the command line, or the new-game screen).
    pub(super) fn open_online(&mut self, start: OnlineStart) {
        let mut online = Online::new(start, self.ai.now);
        online.set_assist(self.online_assist());
        self.screen = Screen::Online(Box::new(online));
        self.take_online_requests();
    }

    /// "Online" on the new-game screen: asks for a server; leaving comes back to the form.
    pub(super) fn online_from_setup(&mut self) {
        let Some((dir, memory)) = self.online_home.clone() else {
            self.error("no config folder: online play needs one (set BRANDUBH_CONFIG_DIR)".into());
            return;
        };
        let Screen::Setup(form) = &self.screen else {
            return;
        };
        self.before_online = Some(form.clone());
        let save_dir = self.storage.save_dir.clone();
        let mut online = Online::choose_server(dir, save_dir, memory, self.ai.now);
        online.set_assist(self.online_assist());
        self.screen = Screen::Online(Box::new(online));
        self.take_online_requests();
    }

    /// An action on the online screens; leaving them quits, or goes back to the new-game
    /// form they were opened from.
    pub(super) fn update_online(&mut self, action: Action) {
        let size = self.size;
        if let Screen::Online(online) = &mut self.screen {
            online.update(action, size);
            let toggles = (online.assist().warnings().on(), online.assist().bell());
            let closed = online.is_closed();
            if toggles != (self.warnings.on(), self.bell) {
                // Toggled online: remembered as the local game's toggles are.
                self.warnings = Warnings::new(toggles.0);
                self.bell = toggles.1;
                self.remember();
            }
            if closed {
                match self.before_online.take() {
                    Some(form) => self.show_setup(form),
                    None => self.quit = true,
                }
            }
        }
        self.take_online_requests();
    }

    /// What the online client reports, at `now`.
    pub fn on_net(&mut self, event: client::Event, now: Instant) -> Vec<Effect> {
        if let Screen::Online(online) = &mut self.screen {
            online.on_net(event, now);
        }
        self.take_online_requests();
        self.take_effects()
    }

    /// Lets time pass in online play.
    pub(super) fn tick_online(&mut self, now: Instant) {
        if let Screen::Online(online) = &mut self.screen {
            online.tick(now);
        }
        self.take_online_requests();
    }

    /// When the online screen changes next by itself.
    pub(super) fn next_online_tick(&self) -> Option<Instant> {
        match &self.screen {
            Screen::Online(online) => online.next_tick(),
            _ => None,
        }
    }

    /// The online game's warnings, bell and engine help, as the local game's settings.
    fn online_assist(&self) -> Assist {
        Assist::new(self.warnings.on(), self.bell, self.look.glyphs.repeat)
    }

    /// What online play remembers was written by the storage thread, or why not.
    pub(super) fn online_remembered(&mut self, result: Result<(), String>) {
        match &mut self.screen {
            Screen::Online(online) => online.remembered(&result),
            _ => {
                if let Err(e) = result {
                    self.error(format!("the server and name are not remembered: {e}"));
                }
            }
        }
    }

    /// A finished online game was saved by the storage thread, or why not.
    pub(super) fn online_saved(&mut self, game: u64, result: &Result<PathBuf, String>) {
        match &mut self.screen {
            Screen::Online(online) => online.saved(game, result),
            _ => match result {
                Ok(path) => self.info(format!("online game #{game} saved as {}", path.display())),
                Err(e) => self.error(format!("online game #{game} NOT saved: {e}")),
            },
        }
    }

    /// Takes a report of the engine worker if it is about one of online play's searches;
    /// returns whether it was.
    pub(super) fn online_report(&mut self, report: &Report, now: Instant) -> bool {
        let Screen::Online(online) = &mut self.screen else {
            return false;
        };
        let ours = online.on_report(report, now);
        self.take_online_requests();
        ours
    }

    fn take_online_requests(&mut self) {
        if let Screen::Online(online) = &mut self.screen {
            let requests = online.take_requests();
            self.effects.extend(requests.into_iter().map(Effect::Net));
            let last_job = &mut self.ai.last_job;
            let effects = online.take_assist_effects(|| {
                *last_job += 1;
                *last_job
            });
            self.effects.extend(effects);
        }
    }
}

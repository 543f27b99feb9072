//! The app's side of online play: the online screen opened, its actions, the client's
//! reports and the clock's ticks handed to it, and what it asks turned into effects.

use std::time::Instant;

use super::{App, Screen};
use crate::net::client;
use crate::tui::effect::Effect;
use crate::tui::input::Action;
use crate::tui::online::{Online, OnlineStart};

impl App {
    /// Opens online play as `start` says (from the command line, or the new-game screen).
    pub(super) fn open_online(&mut self, start: OnlineStart) {
        let online = Online::new(start, self.ai.now);
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
        let online = Online::choose_server(dir, save_dir, memory, self.ai.now);
        self.screen = Screen::Online(Box::new(online));
        self.take_online_requests();
    }

    /// An action on the online screens; leaving them quits, or goes back to the new-game
    /// form they were opened from.
    pub(super) fn update_online(&mut self, action: Action) {
        let size = self.size;
        if let Screen::Online(online) = &mut self.screen {
            online.update(action, size);
            if online.is_closed() {
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

    fn take_online_requests(&mut self) {
        if let Screen::Online(online) = &mut self.screen {
            let requests = online.take_requests();
            self.effects.extend(requests.into_iter().map(Effect::Net));
        }
    }
}

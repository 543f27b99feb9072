//! The clocks in the terminal game: the side to move's runs while its game is on screen and
//! goes on; in hot-seat it stops while a dialog is open; watching two AIs it runs only while
//! one thinks (not during the pace's delay, nor while paused). A flag fall ends the game, lost
//! on time.

use std::time::Instant;

use super::{LocalGame, Screen};
use crate::rules::Side;

impl LocalGame {
    /// Whether the side to move's clock runs now.
    fn clock_runs(&self) -> bool {
        let humans = [Side::Attackers, Side::Defenders]
            .into_iter()
            .filter(|&s| self.session.player(s) == crate::game::Player::Human)
            .count();
        let waits = match humans {
            // Hot-seat: a dialog stops the clock.
            2 => !self.overlays.is_empty(),
            1 => false,
            // Two AIs: the clock runs while one thinks.
            _ => self.ai.paused || self.ai.thinking.is_none(),
        };
        self.session.clocks().is_some()
            && self.session.outcome().is_none()
            && matches!(self.screen, Screen::Game)
            && !self.covered
            && !waits
    }

    /// Charges the side to move for the time since the last tick, if its clock runs; ends
    /// the game if its flag falls.
    pub(super) fn run_clock(&mut self, now: Instant) {
        let since = self.clock_from.replace(now);
        if !self.clock_runs() {
            return;
        }
        let Some(since) = since else {
            return;
        };
        if self
            .session
            .spend_time(now.saturating_duration_since(since))
        {
            self.cancel_thinking();
            self.board.selected = None;
            self.board.typing = None;
            self.changed();
            self.say_outcome();
        }
    }

    /// When the clock on screen changes next, if it runs: its text, or its flag falling.
    pub(super) fn next_clock_change(&self) -> Option<Instant> {
        let from = self.clock_from.filter(|_| self.clock_runs())?;
        let clocks = self.session.clocks()?;
        Some(from + clocks.until_text_changes(self.session.side_to_move()))
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use crate::game::TimeControl;
    use crate::rules::{Reason, Side};
    use crate::tui::input::Action;
    use crate::tui::{App, Config};

    fn on_clock(control: &str) -> App {
        App::new(Config {
            skip_setup: true,
            clock: Some(control.parse::<TimeControl>().unwrap()),
            ..Config::default()
        })
    }

    fn left(app: &App, side: Side) -> u128 {
        app.session.clocks().unwrap().side(side).left().as_millis()
    }

    #[test]
    fn the_side_to_move_spends_its_time_and_loses_on_it() {
        let mut app = on_clock("10s");
        let t0 = Instant::now();
        app.tick(t0);
        let ms = Duration::from_millis;
        assert_eq!(
            app.next_tick(),
            Some(t0 + ms(1)),
            "0:10 shows 0:09.9 a millisecond later"
        );
        app.tick(t0 + ms(2_950));
        assert_eq!(
            app.next_tick(),
            Some(t0 + ms(3_001)),
            "0:07.05 shows 0:06.9 at 0:06.999"
        );
        app.tick(t0 + Duration::from_secs(3));
        assert_eq!(left(&app, Side::Attackers), 7_000);
        assert_eq!(left(&app, Side::Defenders), 10_000);
        app.update(Action::StartTyping);
        for c in "d2-e2".chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::Confirm);
        app.tick(t0 + Duration::from_secs(4));
        assert_eq!(left(&app, Side::Attackers), 7_000, "stopped after the move");
        assert_eq!(left(&app, Side::Defenders), 9_000);
        app.tick(t0 + Duration::from_secs(14));
        let outcome = app.session.outcome().unwrap();
        assert_eq!(
            (outcome.winner, outcome.reason),
            (Some(Side::Attackers), Reason::Time)
        );
        assert_eq!(
            app.status().unwrap().text,
            "Attackers win: the defenders ran out of time: v to review, n new game"
        );
        app.update(Action::Undo);
        assert!(app.status().unwrap().text.contains("cannot be taken back"));
        assert!(app.session.outcome().is_some());
    }

    #[test]
    fn in_hot_seat_a_dialog_stops_the_clock() {
        let mut app = on_clock("1m");
        let t0 = Instant::now();
        app.tick(t0);
        app.update(Action::Help);
        app.tick(t0 + Duration::from_secs(20));
        assert_eq!(left(&app, Side::Attackers), 60_000, "stopped in the dialog");
        // Closed just after the last tick (the loop ticks every few milliseconds).
        app.update(Action::Cancel);
        app.tick(t0 + Duration::from_secs(22));
        assert_eq!(left(&app, Side::Attackers), 58_000, "running again");
    }

    #[test]
    fn the_ai_takes_its_move_time_from_its_clock_and_the_panel_shows_both() {
        use crate::ai::Limits;
        use crate::game::{EngineKind, Level, Player};
        let app = App::new(Config {
            skip_setup: true,
            defenders: Player::Ai {
                engine: EngineKind::Search,
                level: Level::Max,
                time: None,
            },
            clock: Some("1m".parse::<TimeControl>().unwrap()),
            ..Config::default()
        });
        let ten = Limits::time(Duration::from_secs(10));
        let budget = app.on_the_clock(Side::Defenders, ten);
        let ms = Duration::from_millis;
        assert_eq!(
            budget.target,
            Some(ms(2_000 - 50)),
            "a thirtieth of a minute, less the margin"
        );
        assert_eq!(budget.limits.time, Some(ms(6_000 - 50)), "three times that");
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
        terminal.draw(|f| app.draw(f)).unwrap();
        let text = format!("{}", terminal.backend());
        assert!(text.contains("clock ● 1:00  ♚ 1:00"), "{text}");
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(30, 12)).unwrap();
        terminal.draw(|f| app.draw(f)).unwrap();
        assert!(format!("{}", terminal.backend()).contains("Attackers 1:00"));
        let plain = App::new(Config::default());
        assert_eq!(
            plain.on_the_clock(Side::Defenders, ten),
            ten.into(),
            "no clock"
        );
    }

    /// The limits `app` starts the defenders' AI with.
    fn defenders_limits(app: &App) -> crate::ai::MoveLimits {
        use crate::game::{EngineKind, Player};
        match app.session.player(Side::Defenders) {
            Player::Ai {
                engine: EngineKind::Search,
                level,
                time,
            } => app.move_limits(Side::Defenders, level, time),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn max_takes_its_own_move_time_without_a_clock_and_less_if_the_clock_says_so() {
        use crate::ai::Limits;
        use crate::ai::MoveLimits;
        use crate::game::Player;
        let app = |player: &str, clock: Option<&str>| {
            App::new(Config {
                skip_setup: true,
                defenders: player.parse::<Player>().unwrap(),
                clock: clock.map(|c| c.parse::<TimeControl>().unwrap()),
                ..Config::default()
            })
        };
        let limits = defenders_limits;
        let secs = Duration::from_secs;
        let ms = Duration::from_millis;
        let alone = |limits: Limits| MoveLimits::from(limits);
        assert_eq!(
            limits(&app("ai:max:3s", None)),
            alone(Limits::time(secs(3)))
        );
        assert_eq!(
            limits(&app("ai:max:10s", None)),
            alone(Limits::time(secs(10)))
        );
        assert_eq!(limits(&app("ai:max", None)), alone(Limits::time(secs(1))));
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
        terminal.draw(|f| app("ai:max:3s", None).draw(f)).unwrap();
        let text = format!("{}", terminal.backend());
        assert!(text.contains("Defenders  AI max 3s"), "{text}");
        assert_eq!(limits(&app("ai:hard", None)), alone(Limits::depth(5)));
        // On a clock of 10 minutes the clock would give a thirtieth, 20 s, to aim at and three
        // times that at most: the 3 s of the player are less, and used whole.
        let paced = |limits: Limits, target: u64| MoveLimits {
            limits,
            target: Some(ms(target)),
        };
        assert_eq!(
            limits(&app("ai:max:3s", Some("10m"))),
            alone(Limits::time(secs(3)))
        );
        assert_eq!(
            limits(&app("ai:max:10s", Some("1m"))),
            paced(Limits::time(ms(6_000 - 50)), 2_000 - 50)
        );
        assert_eq!(
            limits(&app("ai:hard", Some("1m"))),
            paced(Limits::depth(5).with_time(ms(6_000 - 50)), 2_000 - 50)
        );
        // In overtime the period is used whole: no target.
        let mut overtime = app("ai:max", Some("1m/2x10s"));
        overtime.session.spend_time(secs(60));
        assert_eq!(
            overtime.on_the_clock(Side::Attackers, Limits::INFINITE),
            alone(Limits::time(ms(10_000 - 50)))
        );
    }

    #[test]
    fn the_levels_own_time_bounds_the_ai_on_any_clock() {
        use crate::game::Player;
        let limits = |player: &str, clock: TimeControl| {
            let app = App::new(Config {
                skip_setup: true,
                defenders: player.parse::<Player>().unwrap(),
                clock: Some(clock),
                ..Config::default()
            });
            defenders_limits(&app)
        };
        let secs = Duration::from_secs;
        // Correspondence clocks, and the longest ones the check allows (as a settings file
        // or a save may hold): the panel's `AI max 1s` is what the AI takes.
        let huge = crate::game::MAX_DURATION;
        let most = crate::game::MAX_PERIODS;
        let clocks = [
            "1d/move".parse().unwrap(),
            "30d/move".parse().unwrap(),
            TimeControl::new(huge, Duration::ZERO, 0, Duration::ZERO).unwrap(),
            TimeControl::new(secs(60), huge, most, huge).unwrap(),
        ];
        for clock in clocks {
            let max = limits("ai:max", clock);
            assert_eq!(max.limits.time, Some(secs(1)), "{clock}");
            assert!(max.target.is_none_or(|t| t <= secs(1)), "{clock}");
            assert_eq!(
                limits("ai:max:10s", clock).limits.time,
                Some(secs(10)),
                "{clock}"
            );
            assert_eq!(limits("ai:hard", clock).limits.depth, Some(5), "{clock}");
        }
    }

    #[test]
    fn watching_two_ais_a_clock_runs_only_while_its_ai_thinks() {
        use crate::tui::local_game::ai::{Purpose, Thinking};
        let random = crate::tui::local_game::tests::RANDOM;
        let mut app = App::new(Config {
            skip_setup: true,
            attackers: random,
            defenders: random,
            clock: Some("1m".parse::<TimeControl>().unwrap()),
            ..Config::default()
        });
        // Waiting for the pace: no AI thinks yet.
        app.ai.last_move_at = Some(Instant::now() + Duration::from_secs(3600));
        let t0 = Instant::now();
        app.tick(t0);
        app.tick(t0 + Duration::from_secs(5));
        assert_eq!(
            left(&app, Side::Attackers),
            60_000,
            "the pace's delay is free"
        );
        app.ai.thinking = Some(Thinking::new(1, Side::Attackers, Purpose::Move, random));
        app.tick(t0 + Duration::from_secs(7));
        assert_eq!(left(&app, Side::Attackers), 58_000, "thinking costs");
    }
}

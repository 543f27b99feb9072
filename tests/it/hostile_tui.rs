//! Hostile cases for the terminal game and its records: signals nobody expects, a screen too
//! small to draw on, records at the documented bounds, names that do not read as typed.

/// Signals whose default action ends the program (SIGUSR1, SIGALRM, ...): the game ends on
/// them as on SIGTERM, giving the terminal back and keeping the game, instead of being killed
/// in the alternate screen with mouse reporting on.
#[cfg(unix)]
#[test]
fn sigusr1_restores_the_terminal_and_keeps_the_game() {
    crate::e2e::an_ending_signal_restores_the_terminal_and_keeps_the_game(
        "USR1",
        signal_hook::consts::SIGUSR1,
    );
}

#[cfg(unix)]
#[test]
fn sigalrm_restores_the_terminal_and_keeps_the_game() {
    crate::e2e::an_ending_signal_restores_the_terminal_and_keeps_the_game(
        "ALRM",
        signal_hook::consts::SIGALRM,
    );
}

//! The `--ascii` look for the text: the frames and the pieces have ASCII glyphs of their own
//! ([`super::theme::Glyphs::ASCII`]); what the views write besides (arrows, dots, stars, the
//! graph's blocks) is replaced in the finished frame, one cell at a time, by the ASCII
//! character closest to it.

use ratatui::buffer::Buffer;

/// The ASCII stand-in for a symbol the views draw, if it is not ASCII already.
fn stand_in(symbol: &str) -> Option<&'static str> {
    Some(match symbol {
        "·" | "–" | "—" | "─" | "━" => "-",
        "•" | "●" | "★" | "¶" => "*",
        "…" => "~",
        "×" => "x",
        "↑" | "▲" => "^",
        "↓" | "▼" => "v",
        "←" | "◀" => "<",
        "→" | "▶" | "›" => ">",
        "½" => "h",
        "│" | "┃" => "|",
        "±" | "┌" | "┐" | "└" | "┘" | "├" | "┤" | "┬" | "┴" | "┼" | "⊡" => "+",
        "▀" => "'",
        "▄" => ".",
        "█" => ":",
        "○" => "o",
        "♚" => "K",
        "⊠" => "#",
        "é" => "e",
        "\u{fffd}" => "?",
        _ => return None,
    })
}

/// Replaces every symbol of `buf` that has an ASCII stand-in.
pub fn transliterate(buf: &mut Buffer) {
    for cell in &mut buf.content {
        if let Some(ascii) = stand_in(cell.symbol()) {
            cell.set_symbol(ascii);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    #[test]
    fn symbols_become_ascii_and_ascii_stays() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
        buf.set_string(0, 0, "a·↑↓▶★…─│┌x", ratatui::style::Style::new());
        transliterate(&mut buf);
        let text: String = buf
            .content
            .iter()
            .map(ratatui::buffer::Cell::symbol)
            .collect();
        assert_eq!(text, "a-^v>*~-|+x ");
    }
}

//! Lines read from another program (OpenTafl driving `brandubh otep`, an OTEP engine a
//! `match` runs), each capped in length so that a line without end is never held whole in
//! memory. Below every layer, like [`crate::quote`].

use std::io::{self, BufRead, Read};

/// The longest line kept, in bytes, without its end; a longer one is skipped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Reads the next line into `bytes`: `Some(true)` when it fits in [`MAX_LINE_BYTES`],
/// `Some(false)` when it is longer (then it is skipped to its end, never held whole in memory),
/// `None` at the end of input.
pub(crate) fn read_line<R: BufRead>(
    input: &mut R,
    bytes: &mut Vec<u8>,
) -> io::Result<Option<bool>> {
    bytes.clear();
    // The line and its end, or one byte too many.
    let limit = MAX_LINE_BYTES as u64 + 1;
    let read = input.by_ref().take(limit).read_until(b'\n', bytes)?;
    if read == 0 {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') || read <= MAX_LINE_BYTES {
        return Ok(Some(true));
    }
    bytes.clear();
    skip_line(input)?;
    Ok(Some(false))
}

/// Consumes input up to and including the next line end (or to the end of input).
fn skip_line<R: BufRead>(input: &mut R) -> io::Result<()> {
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(());
        }
        if let Some(end) = buffer.iter().position(|&b| b == b'\n') {
            input.consume(end + 1);
            return Ok(());
        }
        let all = buffer.len();
        input.consume(all);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines `read_line` gives for `input`: the text, or `None` for a skipped one.
    fn lines(input: &[u8]) -> Vec<Option<String>> {
        let mut input = io::BufReader::with_capacity(1000, input);
        let mut bytes = Vec::new();
        let mut lines = Vec::new();
        while let Some(fits) = read_line(&mut input, &mut bytes).unwrap() {
            lines.push(fits.then(|| String::from_utf8_lossy(&bytes).into_owned()));
            if !fits {
                assert!(bytes.is_empty(), "a skipped line is not kept");
            }
        }
        lines
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_and_the_next_one_read() {
        let longest = "x".repeat(MAX_LINE_BYTES);
        let input = format!("{longest}\n{longest}y\nhello\n{longest}yz");
        assert_eq!(
            lines(input.as_bytes()),
            [
                Some(format!("{longest}\n")),
                None,
                Some("hello\n".to_owned()),
                None
            ]
        );
    }

    #[test]
    fn a_last_line_without_its_end_is_read() {
        assert_eq!(lines(b"goodbye"), [Some("goodbye".to_owned())]);
        assert!(lines(b"").is_empty());
    }
}

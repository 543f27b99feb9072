//! Messages on an async stream, one per line, each line capped at [`MAX_LINE_BYTES`] as
//! [`crate::capped_lines`] caps them on blocking streams: a longer line is skipped to its end,
//! never held whole in memory. Shared by the server and the client.

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::protocol::MAX_LINE_BYTES;

/// One line read from the other end.
#[derive(Debug, Eq, PartialEq)]
pub(crate) enum Line {
    /// A line that fits, without its end.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`], skipped.
    TooLong,
    /// A line that is not UTF-8: refused whole, never read with its bad bytes replaced
    /// (a name read so would not be the one sent).
    NotUtf8,
    /// The end of the stream.
    End,
}

/// Reads the next line.
pub(crate) async fn read_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
    bytes: &mut Vec<u8>,
) -> std::io::Result<Line> {
    bytes.clear();
    let limit = MAX_LINE_BYTES as u64 + 1;
    let read = input.take(limit).read_until(b'\n', bytes).await?;
    if read == 0 {
        return Ok(Line::End);
    }
    if bytes.last() == Some(&b'\n') || read <= MAX_LINE_BYTES {
        while matches!(bytes.last(), Some(b'\n' | b'\r')) {
            bytes.pop();
        }
        return Ok(match std::str::from_utf8(bytes) {
            Ok(text) => Line::Text(text.to_owned()),
            Err(_) => Line::NotUtf8,
        });
    }
    bytes.clear();
    // Skip to the line's end, a buffer at a time.
    loop {
        let buffer = input.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(Line::TooLong);
        }
        if let Some(end) = buffer.iter().position(|&b| b == b'\n') {
            input.consume(end + 1);
            return Ok(Line::TooLong);
        }
        let all = buffer.len();
        input.consume(all);
    }
}

/// Writes one line and flushes it.
pub(crate) async fn write_line<W: AsyncWrite + Unpin>(
    output: &mut W,
    line: &str,
) -> std::io::Result<()> {
    let mut bytes = Vec::with_capacity(line.len() + 1);
    bytes.extend_from_slice(line.as_bytes());
    bytes.push(b'\n');
    output.write_all(&bytes).await?;
    output.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_line_of_invalid_utf8_is_refused_not_replaced() {
        let mut input = tokio::io::BufReader::new(&b"al\xffce\nnext\n"[..]);
        let mut bytes = Vec::new();
        let line = read_line(&mut input, &mut bytes).await.unwrap();
        assert_eq!(line, Line::NotUtf8);
        let line = read_line(&mut input, &mut bytes).await.unwrap();
        assert_eq!(line, Line::Text("next".into()));
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_skipped_and_the_next_one_read() {
        let longest = "x".repeat(MAX_LINE_BYTES);
        let text = format!("{longest}y\nhello\r\n{longest}\nend");
        let mut input = tokio::io::BufReader::with_capacity(1000, text.as_bytes());
        let mut bytes = Vec::new();
        let mut lines = Vec::new();
        loop {
            let line = read_line(&mut input, &mut bytes).await.unwrap();
            if line == Line::End {
                break;
            }
            lines.push(line);
        }
        assert_eq!(
            lines,
            [
                Line::TooLong,
                Line::Text("hello".into()),
                Line::Text(longest),
                Line::Text("end".into())
            ]
        );
    }
}

//! What the network tools (`net_load`, `net_attack`) share: the server as a child process,
//! its resources from /proc, and a client's connection (TLS, hello, identify) and lines.
#![allow(dead_code, reason = "each tool uses a part of it")]

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use brandubh::net::identity::{ChannelBinding, Identity};
use brandubh::net::protocol::{ClientMessage, ServerMessage, VERSION};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader as AsyncBufReader};
use tokio::net::{TcpSocket, TcpStream};
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

/// A client's connection to the server.
pub type Stream = AsyncBufReader<TlsStream<TcpStream>>;

/// Sends a message as one line.
pub async fn send(stream: &mut Stream, message: &ClientMessage) -> Result<(), String> {
    send_line(stream, &message.to_line()).await
}

/// Sends a line as it is.
pub async fn send_line(stream: &mut Stream, line: &str) -> Result<(), String> {
    let line = format!("{line}\n");
    let io = async {
        stream.get_mut().write_all(line.as_bytes()).await?;
        stream.get_mut().flush().await
    };
    io.await.map_err(|e| format!("send: {e}"))
}

/// Reads the next message.
pub async fn receive(stream: &mut Stream) -> Result<ServerMessage, String> {
    let mut line = String::new();
    match stream.read_line(&mut line).await {
        Ok(1..) => ServerMessage::parse(line.trim_end()).map_err(|e| e.to_string()),
        Ok(0) => Err("closed".into()),
        Err(e) => Err(format!("receive: {}", e.kind())),
    }
}

/// A TCP connection to `address`, from `source` if given (another loopback address: the
/// server counts connections per address).
pub async fn tcp(address: &str, source: Option<IpAddr>) -> Result<TcpStream, String> {
    let address: SocketAddr = address.parse().map_err(|e| format!("{address}: {e}"))?;
    let socket = if address.is_ipv4() {
        TcpSocket::new_v4()
    } else {
        TcpSocket::new_v6()
    }
    .map_err(|e| e.to_string())?;
    if let Some(source) = source {
        socket
            .bind(SocketAddr::new(source, 0))
            .map_err(|e| format!("bind {source}: {e}"))?;
    }
    let tcp = socket
        .connect(address)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    tcp.set_nodelay(true).map_err(|e| e.to_string())?;
    Ok(tcp)
}

/// What a connection must sign to identify: the challenge's nonce, and the TLS session's
/// channel binding.
pub struct Challenge {
    /// The nonce.
    pub nonce: String,
    /// The session's binding.
    pub binding: ChannelBinding,
}

/// TLS over `tcp` and the hello; returns the stream and the challenge.
pub async fn hello(tls: &TlsConnector, tcp: TcpStream) -> Result<(Stream, Challenge), String> {
    let name = rustls::pki_types::ServerName::try_from("brandubh").map_err(|e| e.to_string())?;
    let tls = tls
        .connect(name, tcp)
        .await
        .map_err(|e| format!("TLS: {e}"))?;
    let binding = ChannelBinding::of(tls.get_ref().1).ok_or("TLS gave no channel binding")?;
    let mut stream = AsyncBufReader::new(tls);
    let hello = ClientMessage::Hello {
        version: VERSION,
        client: "brandubh network tool".into(),
    };
    send(&mut stream, &hello).await?;
    loop {
        match receive(&mut stream).await? {
            ServerMessage::Challenge { nonce } => {
                return Ok((stream, Challenge { nonce, binding }));
            }
            ServerMessage::Error { message, .. } => return Err(message),
            _ => {}
        }
    }
}

/// Identifies as `name` with `identity`; waits for the welcome.
pub async fn identify(
    stream: &mut Stream,
    challenge: &Challenge,
    identity: &Identity,
    name: &str,
) -> Result<(), String> {
    let message = ClientMessage::Identify {
        name: name.to_owned(),
        key: identity.public_hex(),
        signature: identity.sign(&challenge.nonce, &challenge.binding),
        bot: false,
    };
    send(stream, &message).await?;
    loop {
        match receive(stream).await? {
            ServerMessage::Welcome { .. } => return Ok(()),
            ServerMessage::Error { message, .. } => return Err(message),
            _ => {}
        }
    }
}

/// Connects (from `source`, if given), says hello and identifies as `name`.
pub async fn connect(
    address: &str,
    source: Option<IpAddr>,
    tls: &TlsConnector,
    identity: &Identity,
    name: &str,
) -> Result<Stream, String> {
    let (mut stream, challenge) = hello(tls, tcp(address, source).await?).await?;
    identify(&mut stream, &challenge, identity, name).await?;
    Ok(stream)
}

/// The server's stderr, in its data folder.
pub const LOG_FILE: &str = "serve.log";

/// The server as a child process.
pub struct Server {
    child: Child,
    /// Its data folder.
    pub data: PathBuf,
    /// The address it listens on.
    pub address: String,
    /// Its certificate's fingerprint.
    pub fingerprint: String,
}

/// A server process's resources.
pub struct Usage {
    /// CPU time, user and system.
    pub cpu: Duration,
    /// Peak resident memory, KiB.
    pub peak_rss_kib: u64,
    /// Resident memory now, KiB.
    pub rss_kib: u64,
}

impl Server {
    /// Starts `brandubh serve` with `options` and reads its address and fingerprint; its
    /// stderr goes on [`Server::log`] in `data`.
    pub fn start(
        program: &Path,
        data: &Path,
        listen: &str,
        options: &[&str],
    ) -> Result<Server, String> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(data.join(LOG_FILE))
            .map_err(|e| format!("cannot write the server's log: {e}"))?;
        let mut child = Command::new(program)
            .args(["serve", "--listen", listen])
            .args(options)
            .arg("--data")
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
        let stdout = child.stdout.take().ok_or("no output")?;
        let mut lines = BufReader::new(stdout).lines();
        let mut next = || -> Result<String, String> {
            let line = lines.next().ok_or("the server said nothing")?;
            let line = line.map_err(|e| e.to_string())?;
            let last = line.rsplit(' ').next().unwrap_or_default();
            Ok(last.to_owned())
        };
        let address = next()?;
        let fingerprint = next()?;
        Ok(Server {
            child,
            data: data.to_owned(),
            address,
            fingerprint,
        })
    }

    /// The panics its log tells of: each line that says so and the line after it.
    pub fn panics(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.data.join(LOG_FILE)).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines
            .iter()
            .enumerate()
            .filter(|(_, line)| line.contains("panicked"))
            .flat_map(|(i, _)| lines[i..lines.len().min(i + 2)].iter())
            .map(|line| (*line).to_owned())
            .collect()
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Its resources now.
    pub fn usage(&self) -> std::io::Result<Usage> {
        usage(self.child.id())
    }

    /// Reads the process's CPU time and peak memory, then kills it with SIGKILL.
    pub fn kill(&mut self) -> Result<Usage, String> {
        let usage = usage(self.child.id()).map_err(|e| format!("/proc: {e}"))?;
        self.child.kill().map_err(|e| e.to_string())?;
        self.child.wait().map_err(|e| e.to_string())?;
        Ok(usage)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.alive() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A process's CPU time (user and system) and resident memory, from /proc.
fn usage(pid: u32) -> std::io::Result<Usage> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // Fields after the command's closing parenthesis: the state is field 3, utime 14, stime 15.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let per_second = rustix::param::clock_ticks_per_second();
    let cpu = Duration::from_nanos((ticks(11) + ticks(12)) * 1_000_000_000 / per_second);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let kib = |field: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    Ok(Usage {
        cpu,
        peak_rss_kib: kib("VmHWM:"),
        rss_kib: kib("VmRSS:"),
    })
}

/// The machine's load averages (1, 5 and 15 minutes).
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// `brandubh` beside this example's folder (`target/release/examples/..`).
pub fn default_server() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    me.parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("brandubh"))
        .filter(|p| p.exists())
        .ok_or_else(|| "no brandubh beside the example: build it, or give --server".into())
}

/// The time at `per_mille` of `times` sorted (nearest rank), in milliseconds.
pub fn percentile_ms(times: &[Duration], per_mille: usize) -> f64 {
    let rank = (times.len() * per_mille).div_ceil(1000);
    times
        .get(rank.saturating_sub(1))
        .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
}

/// A tool's exit code from what its run returned: 0 when every check held, 1 when one did not,
/// 2 (with its one line on stderr) when the run could not be made.
pub fn exit_code(tool: &str, run: Result<bool, String>) -> std::process::ExitCode {
    match run {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{tool}: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

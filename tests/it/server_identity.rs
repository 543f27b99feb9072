//! Identities on the server: a proof of a key that cannot be relayed, and the names a key
//! may claim. A real server on a loopback port, every wait bounded.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::mpsc::{Receiver, channel};

use brandubh::net::client::{Client, ClientConfig, Event};
use brandubh::net::protocol::{ServerMessage, VERSION};
use brandubh::net::server::{Limits, RunningServer};
use brandubh::net::tls::ServerKey;

use super::net::{WAIT, raw_tls, start_server};

/// Reads one line from a blocking TLS stream (bounded by the socket's read timeout).
fn line(reader: &mut impl BufRead) -> String {
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.ends_with('\n'), "no line: {line:?}");
    line
}

/// A TLS server of a key of its own, and a real client (under the name alice) that trusts
/// it and has connected to it.
struct Rogue {
    /// The rogue's end of the client's connection.
    client_side: BufReader<rustls::StreamOwned<rustls::ServerConnection, TcpStream>>,
    /// What the client reports.
    events: Receiver<Event>,
    _client: Client,
    _dirs: [tempfile::TempDir; 2],
}

impl Rogue {
    fn accepting_a_client() -> Rogue {
        let (key_dir, config) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let key = ServerKey::load_or_create(key_dir.path()).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let mut settings = ClientConfig::new(&address, Some("alice"), config.path().into());
        settings.trust = Some(key.fingerprint());
        settings.reconnect = false;
        let (sender, events) = channel();
        let client = Client::start(settings, sender);
        let (tcp, _) = listener.accept().unwrap();
        tcp.set_read_timeout(Some(WAIT)).unwrap();
        let connection = rustls::ServerConnection::new(key.server_config().unwrap()).unwrap();
        Rogue {
            client_side: BufReader::new(rustls::StreamOwned::new(connection, tcp)),
            events,
            _client: client,
            _dirs: [key_dir, config],
        }
    }
}

#[test]
fn an_identity_proof_relayed_by_a_rogue_server_is_refused() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    // The rogue: a TLS server of its own key, which the victim trusts.
    let mut rogue = Rogue::accepting_a_client();
    let victim = &mut rogue.client_side;
    let mut real = BufReader::new(raw_tls(&server.addr().to_string()));
    // The victim's hello to the real server; the real server's hello and challenge to the
    // victim; the victim's signed identify to the real server.
    let hello = line(victim);
    real.get_mut().write_all(hello.as_bytes()).unwrap();
    for _ in 0..2 {
        let greeting = line(&mut real);
        victim.get_mut().write_all(greeting.as_bytes()).unwrap();
    }
    let identify = line(victim);
    assert!(identify.contains(r#""type":"identify""#), "{identify}");
    real.get_mut().write_all(identify.as_bytes()).unwrap();
    let answer = line(&mut real);
    assert!(
        answer.contains(r#""code":"bad_signature""#),
        "the relayed proof was taken: {answer}"
    );
    // Nothing else comes: no welcome after the refusal.
    real.get_mut()
        .write_all(b"{\"type\":\"ping\",\"id\":7}\n")
        .unwrap();
    let pong = line(&mut real);
    assert!(pong.contains(r#""type":"pong""#), "{pong}");
}

/// A raw TLS connection to `server` that said hello; returns it and the challenge's nonce.
fn challenged(
    server: &RunningServer,
) -> (
    BufReader<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>,
    String,
) {
    let mut stream = BufReader::new(raw_tls(&server.addr().to_string()));
    let hello = format!("{{\"type\":\"hello\",\"version\":{VERSION},\"client\":\"raw\"}}\n");
    stream.get_mut().write_all(hello.as_bytes()).unwrap();
    assert!(line(&mut stream).contains(r#""type":"hello""#));
    let challenge: serde_json::Value = serde_json::from_str(&line(&mut stream)).unwrap();
    let nonce = challenge["nonce"].as_str().unwrap().to_owned();
    (stream, nonce)
}

#[test]
fn a_program_signing_the_documented_bytes_is_welcomed() {
    use ed25519_dalek::{Signer, SigningKey};
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let (mut stream, nonce) = challenged(&server);
    // As docs/protocol.md says: the TLS exporter value of this label, no context, 32 bytes.
    let binding = stream
        .get_ref()
        .conn
        .export_keying_material([0; 32], b"EXPORTER-brandubh-identity", None)
        .unwrap();
    let signed = format!("brandubh identity v3\n{nonce}\n{}", hex::encode(binding));
    let key = SigningKey::from_bytes(&[9; 32]);
    let identify = serde_json::json!({
        "type": "identify",
        "name": "raw",
        "key": hex::encode(key.verifying_key().to_bytes()),
        "signature": hex::encode(key.sign(signed.as_bytes()).to_bytes()),
    });
    stream
        .get_mut()
        .write_all(format!("{identify}\n").as_bytes())
        .unwrap();
    let answer = line(&mut stream);
    assert!(answer.contains(r#""type":"welcome""#), "{answer}");
}

#[test]
fn a_name_of_invalid_utf8_is_refused_not_replaced() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let (mut stream, _) = challenged(&server);
    let mut identify = br#"{"type":"identify","name":"al"#.to_vec();
    identify.extend_from_slice(b"\xff");
    identify.extend_from_slice(br#"ce","key":"00","signature":"00"}"#);
    identify.push(b'\n');
    stream.get_mut().write_all(&identify).unwrap();
    let answer = line(&mut stream);
    assert!(answer.contains(r#""code":"bad_message""#), "{answer}");
    assert!(answer.contains("UTF-8"), "{answer}");
}

/// Connects to `server` under `name` with the key kept in `config`: the name welcomed, or
/// the server's refusal.
fn claim(server: &RunningServer, config: &Path, name: &str) -> Result<String, String> {
    let mut settings = ClientConfig::new(&server.addr().to_string(), Some(name), config.into());
    settings.trust = Some(server.fingerprint().to_owned());
    settings.reconnect = false;
    let (sender, events) = channel();
    let _client = Client::start(settings, sender);
    loop {
        match events.recv_timeout(WAIT).expect("no answer") {
            Event::Message(ServerMessage::Welcome { name }) => {
                return Ok(name);
            }
            Event::Failed(e) => return Err(e.to_string()),
            _ => {}
        }
    }
}

#[test]
fn a_name_like_one_another_key_holds_is_refused() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let (alice, mallory) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert_eq!(
        claim(&server, alice.path(), "alice").as_deref(),
        Ok("alice")
    );
    assert_eq!(claim(&server, alice.path(), "cope").as_deref(), Ok("cope"));
    for look_alike in ["Alice", "ALICE", "aIice", "\u{441}\u{43e}\u{440}\u{435}"] {
        let refused = claim(&server, mallory.path(), look_alike).unwrap_err();
        assert!(refused.contains("looks like"), "{look_alike}: {refused}");
    }
    // The key that holds them may still use them, and a name unlike them is free.
    assert_eq!(
        claim(&server, alice.path(), "alice").as_deref(),
        Ok("alice")
    );
    assert_eq!(
        claim(&server, mallory.path(), "mallory").as_deref(),
        Ok("mallory")
    );
    // A name is kept in its composed form (NFC), whatever form it came in.
    assert_eq!(
        claim(&server, mallory.path(), "Zoe\u{301}").as_deref(),
        Ok("Zo\u{e9}")
    );
}

#[test]
fn a_key_holds_a_bounded_number_of_names() {
    let data = tempfile::tempdir().unwrap();
    let limits = Limits::default();
    let most = limits.names_per_key;
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let key = tempfile::tempdir().unwrap();
    for n in 0..most {
        let name = format!("name{n}");
        assert_eq!(claim(&server, key.path(), &name), Ok(name));
    }
    let refused = claim(&server, key.path(), "one too many").unwrap_err();
    assert!(refused.contains("names already"), "{refused}");
    // Those it holds are still its own.
    assert_eq!(claim(&server, key.path(), "name0").as_deref(), Ok("name0"));
}

#[test]
fn new_names_from_one_address_are_capped_per_minute() {
    let data = tempfile::tempdir().unwrap();
    let limits = Limits {
        new_names_per_minute: 2,
        ..Limits::default()
    };
    assert!(
        limits.names_per_key > 2,
        "the per-key cap must not be the one reached"
    );
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let key = tempfile::tempdir().unwrap();
    for name in ["alice", "bob"] {
        assert_eq!(claim(&server, key.path(), name).as_deref(), Ok(name));
    }
    let refused = claim(&server, key.path(), "carol").unwrap_err();
    assert!(refused.contains("new names"), "{refused}");
    // A name already held is no new name.
    assert_eq!(claim(&server, key.path(), "alice").as_deref(), Ok("alice"));
}

#[test]
fn a_server_line_of_invalid_utf8_is_refused_by_the_client() {
    // A server (trusted) whose hello holds a byte that is not UTF-8.
    let mut rogue = Rogue::accepting_a_client();
    let server = &mut rogue.client_side;
    line(server);
    let mut hello = format!(r#"{{"type":"hello","version":{VERSION},"server":"x"#).into_bytes();
    hello.extend_from_slice(b"\xff\"}\n");
    server.get_mut().write_all(&hello).unwrap();
    let failure = loop {
        match rogue.events.recv_timeout(WAIT).expect("no answer") {
            Event::Failed(e) => break e.to_string(),
            Event::Connected { .. } => panic!("connected"),
            _ => {}
        }
    };
    assert!(failure.contains("not UTF-8"), "{failure}");
}

//! Identities on the server: a proof of a key that cannot be relayed, and the names a key
//! may claim. A real server on a loopback port, every wait bounded.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::mpsc::channel;

use brandubh::net::client::{Client, ClientConfig, Event};
use brandubh::net::server::Limits;
use brandubh::net::tls::ServerKey;

use super::net::{WAIT, raw_tls, start_server};
use brandubh::net::protocol::VERSION;

/// Reads one line from a blocking TLS stream (bounded by the socket's read timeout).
fn line(reader: &mut impl BufRead) -> String {
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.ends_with('\n'), "no line: {line:?}");
    line
}

#[test]
fn an_identity_proof_relayed_by_a_rogue_server_is_refused() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    // The rogue: a TLS server of its own key, which the victim trusts.
    let rogue_dir = tempfile::tempdir().unwrap();
    let rogue_key = ServerKey::load_or_create(rogue_dir.path()).unwrap();
    let rogue_tls = rogue_key.server_config().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let rogue_address = listener.local_addr().unwrap().to_string();
    let victim_config = tempfile::tempdir().unwrap();
    let mut settings =
        ClientConfig::new(&rogue_address, Some("alice"), victim_config.path().into());
    settings.trust = Some(rogue_key.fingerprint());
    settings.reconnect = false;
    let (sender, _events) = channel::<Event>();
    let _victim = Client::start(settings, sender);

    let (tcp, _) = listener.accept().unwrap();
    tcp.set_read_timeout(Some(WAIT)).unwrap();
    let connection = rustls::ServerConnection::new(rogue_tls).unwrap();
    let mut victim = BufReader::new(rustls::StreamOwned::new(connection, tcp));
    let mut real = BufReader::new(raw_tls(&server.addr().to_string()));
    // The victim's hello to the real server; the real server's hello and challenge to the
    // victim; the victim's signed identify to the real server.
    let hello = line(&mut victim);
    real.get_mut().write_all(hello.as_bytes()).unwrap();
    for _ in 0..2 {
        let greeting = line(&mut real);
        victim.get_mut().write_all(greeting.as_bytes()).unwrap();
    }
    let identify = line(&mut victim);
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

#[test]
fn a_program_signing_the_documented_bytes_is_welcomed() {
    use ed25519_dalek::{Signer, SigningKey};
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let mut stream = BufReader::new(raw_tls(&server.addr().to_string()));
    let hello = format!("{{\"type\":\"hello\",\"version\":{VERSION},\"client\":\"raw\"}}\n");
    stream.get_mut().write_all(hello.as_bytes()).unwrap();
    assert!(line(&mut stream).contains(r#""type":"hello""#));
    let challenge: serde_json::Value = serde_json::from_str(&line(&mut stream)).unwrap();
    let nonce = challenge["nonce"].as_str().unwrap();
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
    let mut stream = BufReader::new(raw_tls(&server.addr().to_string()));
    let hello = format!("{{\"type\":\"hello\",\"version\":{VERSION},\"client\":\"raw\"}}\n");
    stream.get_mut().write_all(hello.as_bytes()).unwrap();
    line(&mut stream);
    line(&mut stream);
    let mut identify = br#"{"type":"identify","name":"al"#.to_vec();
    identify.extend_from_slice(b"\xff");
    identify.extend_from_slice(br#"ce","key":"00","signature":"00"}"#);
    identify.push(b'\n');
    stream.get_mut().write_all(&identify).unwrap();
    let answer = line(&mut stream);
    assert!(answer.contains(r#""code":"bad_message""#), "{answer}");
    assert!(answer.contains("UTF-8"), "{answer}");
}

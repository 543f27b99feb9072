//! `brandubh online` meeting what is not a brandubh server, a bad address, a changed key and
//! `--forget`: one line in words and exit code 2. Fake servers on 127.0.0.1:0, each serving
//! a bounded number of connections and stopping by itself.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

use brandubh::net::server::Limits;

use super::net::{online_run, start_server};

/// A fake server on the loopback answering up to `connections` connections with `answer`
/// (given what the client sent first); returns its address.
fn fake_server(connections: usize, answer: fn(&[u8]) -> Vec<u8>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(connections) {
            let Ok(mut stream) = stream else { continue };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
            let mut first = [0; 4096];
            let Ok(n) = stream.read(&mut first) else {
                continue;
            };
            let _ = stream.write_all(&answer(&first[..n]));
        }
    });
    address
}

/// `brandubh online ARGS` with the config folder `config`, no terminal: its exit code and
/// what it wrote on stderr.
fn online(config: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = online_run(config, args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), stderr)
}

const TRUST: &str = "SHA256:0000000000000000000000000000000000000000000000000000000000000000";

#[test]
fn an_http_or_echo_server_is_said_not_to_be_a_brandubh_server() {
    let http = fake_server(2, |_| b"HTTP/1.1 400 Bad Request\r\n\r\n".to_vec());
    let echo = fake_server(2, <[u8]>::to_vec);
    let config = tempfile::tempdir().unwrap();
    for address in [http, echo] {
        let (code, stderr) = online(
            config.path(),
            &[&address, "--name", "ann", "--trust", TRUST],
        );
        assert_eq!(code, Some(2), "{stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("{address} is not a brandubh server")),
            "{stderr}"
        );
    }
}

#[test]
fn a_port_out_of_range_is_refused_before_any_lookup() {
    let config = tempfile::tempdir().unwrap();
    for address in ["127.0.0.1:99999", "127.0.0.1:0", "127.0.0.1:port"] {
        let (code, stderr) = online(config.path(), &[address, "--name", "ann"]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains("the port must be 1 to 65535"), "{stderr}");
        assert!(!stderr.contains(":7343"), "{stderr}");
    }
}

#[test]
fn forget_removes_a_pinned_key_and_the_changed_key_error_names_the_file() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let address = server.addr().to_string();
    let config = tempfile::tempdir().unwrap();
    let known = config.path().join("known_servers");
    std::fs::write(&known, format!("other:7343 SHA256:11\n{address} {TRUST}\n")).unwrap();
    let archive = ["--name", "reader", "--games", "nobody", "--out"];
    let out = config.path().join("out");
    let out = out.to_str().unwrap();
    let (code, stderr) = online(
        config.path(),
        &[&[address.as_str()][..], &archive, &[out]].concat(),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("has changed"), "{stderr}");
    assert!(
        stderr.contains(&known.display().to_string())
            && stderr.contains(&format!("brandubh online --forget {address}")),
        "{stderr}"
    );
    let output = online_run(config.path(), &[&address, "--forget"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("forgot the key of {address}")) && stdout.contains(TRUST),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(&known).unwrap(),
        "other:7343 SHA256:11\n"
    );
    // Nothing left to forget: said, exit code 2.
    let (code, stderr) = online(config.path(), &[&address, "--forget"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no key is pinned for"), "{stderr}");
    // Trusted again: it connects.
    let key = server.fingerprint().to_owned();
    let (code, stderr) = online(
        config.path(),
        &[
            &[address.as_str(), "--trust", key.as_str()][..],
            &archive,
            &[out],
        ]
        .concat(),
    );
    assert_eq!(code, Some(0), "{stderr}");
}

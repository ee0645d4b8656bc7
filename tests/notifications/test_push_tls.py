"""The push request over TLS, as on the site (issue 46 finding 4): posted to the address the endpoint's check
resolved, the certificate verified against the endpoint's name (sent as SNI and in Host), never against the
address connected to; a certificate the machine does not trust is a failure, nothing is sent."""

import datetime
import os
import socket
import ssl
import threading

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from leagues.notifications import endpoints, push
from leagues.notifications.models import PushSubscription

from .test_web_push import b64, public_raw, vapid  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("vapid")
NAME = "push.example"


def certificate(folder):
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, NAME)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(NAME)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_file, key_file


class TlsService:
    """A push service on 127.0.0.1 over TLS, with a certificate for push.example: keeps the SNI and requests."""

    def __init__(self, cert_file, key_file):
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(cert_file, key_file)
        self.names, self.requests = [], []
        self.context.sni_callback = lambda sock, name, context: self.names.append(name)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return
            try:
                with self.context.wrap_socket(client, server_side=True) as tls:
                    data = b""
                    while b"\r\n\r\n" not in data:
                        data += tls.recv(65536)
                    self.requests.append(data)
                    tls.sendall(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
            except (OSError, ssl.SSLError):
                client.close()

    def close(self):
        self.listener.close()


@pytest.fixture
def tls(tmp_path, settings, monkeypatch):
    """push.example resolves to the TLS service on this machine (a port other than 443: PUSH_LOCAL_ENDPOINTS)."""
    settings.PUSH_LOCAL_ENDPOINTS = True
    cert_file, key_file = certificate(tmp_path)
    service = TlsService(cert_file, key_file)
    monkeypatch.setattr(
        endpoints,
        "resolver",
        lambda host, port, **kw: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))],
    )
    yield service, cert_file
    service.close()


def subscription(bob, port: int) -> PushSubscription:
    """A device's subscription (its keys are real: the payload is encrypted for them), not saved."""
    key = ec.generate_private_key(ec.SECP256R1())
    return PushSubscription(
        user=bob, endpoint=f"https://{NAME}:{port}/push/bob", p256dh=b64(public_raw(key)), auth=b64(os.urandom(16))
    )


def test_a_trusted_certificate_for_the_endpoint_s_name_takes_the_push(tls, bob, monkeypatch):
    service, cert_file = tls
    real = ssl.create_default_context
    monkeypatch.setattr(push.ssl, "create_default_context", lambda: real(cafile=cert_file))  # trusts it
    push.send(subscription(bob, service.port), {"title": "t"})
    assert service.names == [NAME]  # SNI names the endpoint's host, not 127.0.0.1
    request = service.requests[0]
    assert request.startswith(b"POST /push/bob HTTP/1.1\r\n")
    assert f"Host: {NAME}:{service.port}\r\n".encode() in request


def test_a_certificate_the_machine_does_not_trust_sends_nothing(tls, bob):
    service, _cert_file = tls
    with pytest.raises(ssl.SSLCertVerificationError):
        push.send(subscription(bob, service.port), {"title": "t"})
    assert service.requests == []

package dev.quiver.server;

import java.io.IOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A self-signed certificate for 127.0.0.1 and localhost, valid for a day, with its key, as PEM files. */
final class TestCertificates {
    private TestCertificates() {}

    static TlsFiles selfSigned(Path directory) throws IOException, GeneralSecurityException, OperatorCreationException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        X500Name name = new X500Name("CN=quiver-test");
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(now.toEpochMilli()),
                Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(Duration.ofDays(1))), name, keys.getPublic());
        builder.addExtension(Extension.subjectAlternativeName, false,
                new GeneralNames(new GeneralName[] {new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
        X509CertificateHolder certificate = builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate()));
        Path cert = directory.resolve("server.pem");
        Path key = directory.resolve("server.key");
        try (Writer out = Files.newBufferedWriter(cert, StandardCharsets.US_ASCII); JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(certificate);
        }
        try (Writer out = Files.newBufferedWriter(key, StandardCharsets.US_ASCII); JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(new JcaPKCS8Generator(keys.getPrivate(), null));
        }
        return new TlsFiles(cert, key);
    }
}

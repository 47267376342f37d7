// A self-signed TLS certificate for a made-up host name, made with node:crypto alone (no openssl,
// nothing fetched): an HTTPS server a test starts presents it, and the client trusts it as its `ca`,
// so TLS is checked for real against that name.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/** One DER element: its tag, its length, its content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const length = body.length < 0x80 ? Buffer.from([body.length])
    : body.length < 0x100 ? Buffer.from([0x81, body.length]) : Buffer.from([0x82, body.length >> 8, body.length & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

const sequence = (...content: Buffer[]) => der(0x30, ...content);
const oid = (bytes: number[]) => der(0x06, Buffer.from(bytes));
const ECDSA_WITH_SHA256 = sequence(oid([0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]));
const COMMON_NAME = [0x55, 0x04, 0x03];
const SUBJECT_ALT_NAME = [0x55, 0x1d, 0x11];

/** UTCTime, YYMMDDhhmmssZ. */
const utcTime = (at: Date) => der(0x17, Buffer.from(`${at.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`));

export interface SelfSigned {
  /** PEM, for the server's `cert` and the client's `ca`. */
  cert: string;
  key: string;
}

/** A certificate for `name` (its common name and its one subjectAltName), valid from a day ago for a day. */
export function selfSigned(name: string): SelfSigned {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const subject = sequence(der(0x31, sequence(oid(COMMON_NAME), der(0x0c, Buffer.from(name)))));
  const now = Date.now();
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))), // v3
    der(0x02, Buffer.concat([Buffer.from([0x01]), randomBytes(15)])), // a positive serial number
    ECDSA_WITH_SHA256,
    subject,
    sequence(utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + 86_400_000))),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    der(0xa3, sequence(sequence(oid(SUBJECT_ALT_NAME), der(0x04, sequence(der(0x82, Buffer.from(name))))))),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, ECDSA_WITH_SHA256, der(0x03, Buffer.from([0]), signature));
  const lines = certificate.toString('base64').match(/.{1,64}/g)!.join('\n');
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${lines}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

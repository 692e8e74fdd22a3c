/**
 * A DNS server of the tests' own on a loopback UDP port (dns-packet encodes the messages): the app,
 * started with DNS_SERVERS pointing here, resolves the names the tests choose to the addresses an
 * attack needs (a public-looking name that is really 127.0.0.1), and TXT records for domain checks.
 */
import { createSocket } from "node:dgram";
import dnsPacket from "dns-packet";

export interface DnsRecords {
  A?: Record<string, string[]>;
  AAAA?: Record<string, string[]>;
  TXT?: Record<string, string[]>;
}

export interface TestDnsServer {
  /** `127.0.0.1:port`, as DNS_SERVERS takes it. */
  address: string;
  records: DnsRecords;
  /** Every name asked, in order (with its type). */
  asked: string[];
  /** Holds every answer until resume(): a DNS server that is slow to answer. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startDnsServer(records: DnsRecords = {}): Promise<TestDnsServer> {
  const socket = createSocket("udp4");
  const asked: string[] = [];
  let held: (() => void)[] | null = null;
  const server: TestDnsServer = {
    address: "",
    records,
    asked,
    pause: () => {
      held ??= [];
    },
    resume: () => {
      const answers = held ?? [];
      held = null;
      for (const answer of answers) answer();
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on("message", (message, peer) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const answers: dnsPacket.Answer[] = [];
    for (const question of query.questions ?? []) {
      const name = question.name.toLowerCase().replace(/\.$/, "");
      asked.push(`${question.type} ${name}`);
      const type = question.type as keyof DnsRecords;
      for (const value of server.records[type]?.[name] ?? []) {
        if (type === "TXT") answers.push({ type: "TXT", name: question.name, ttl: 1, data: value });
        else answers.push({ type, name: question.name, ttl: 1, data: value } as dnsPacket.Answer);
      }
    }
    const known = (query.questions ?? []).some((q) =>
      Object.values(server.records).some((byName) => q.name.toLowerCase().replace(/\.$/, "") in (byName ?? {})),
    );
    const response = dnsPacket.encode({
      type: "response",
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (known ? 0 : 3), // 3: NXDOMAIN for names it does not know
      questions: query.questions,
      answers,
    });
    const send = () => socket.send(response, peer.port, peer.address);
    if (held) held.push(send);
    else send();
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  server.address = `127.0.0.1:${socket.address().port}`;
  return server;
}

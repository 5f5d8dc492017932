// Addresses are counted as IPv4 addresses and IPv6 /64 networks, however they are written: a port dropped, and every
// spelling that is not plainly an address in one shared bucket.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { happyUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { addressKey, UNPARSED_ADDRESS } from "#server/security/address-key.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";

describe("addressKey", () => {
  it("keys an IPv4 address by itself, written plainly or mapped into IPv6", () => {
    assert.equal(addressKey("192.0.2.7"), "192.0.2.7");
    assert.equal(addressKey("::ffff:192.0.2.7"), "192.0.2.7");
    assert.notEqual(addressKey("192.0.2.7"), addressKey("192.0.2.8"));
  });

  it("keys every IPv6 address of one /64 alike, however it is spelled, and another /64 apart", () => {
    const key = addressKey("2001:db8:1:2::1");
    for (const ip of ["2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0DB8:0001:0002:0:0:0:abcd", "2001:db8:1:2:a:b:c:d"])
      assert.equal(addressKey(ip), key, ip);
    assert.equal(key, "2001:db8:1:2::/64");
    assert.notEqual(addressKey("2001:db8:1:3::1"), key);
  });

  it("drops a port, as a proxy writing ip:port into X-Forwarded-For sends it", () => {
    assert.equal(addressKey("192.0.2.7:50123"), "192.0.2.7");
    assert.equal(addressKey("192.0.2.7:443"), addressKey("192.0.2.7"));
    assert.equal(addressKey("[2001:db8:1:2::1]:443"), "2001:db8:1:2::/64");
    assert.equal(addressKey("[2001:db8:1:2::1]"), "2001:db8:1:2::/64");
  });

  it("puts every spelling that is not plainly an address in one shared bucket", () => {
    for (const odd of ["0x0a.4.4.4", "012.4.4.4", "1.2.3", "167773188", "not-an-ip", "10.4.4.4:port", ""])
      assert.equal(addressKey(odd), UNPARSED_ADDRESS, odd);
    assert.notEqual(addressKey("10.4.4.4"), UNPARSED_ADDRESS);
  });
});

describe("a portal behind a proxy that writes ip:port", () => {
  it("counts one address's wrong passwords together, whatever port each connection had", async () => {
    const fake = await portalOnFake(happyUpstream({ refuseLogins: true }), {
      env: {
        TRUST_PROXY: "true",
        PUBLIC_URL: "https://portal.example",
        RATE_LIMIT_IP_PER_MINUTE: "3",
        RATE_LIMIT_USER_PER_MINUTE: "100",
      },
    });
    try {
      const statuses: number[] = [];
      for (let port = 50_000; port < 50_005; port++) {
        const attempt = await new PortalClient(fake.app).post(
          "/api/auth/client",
          { shortname: "ACME", username: `someone-${port}`, password: "wrong" },
          { "x-forwarded-for": `198.51.100.9:${port}` },
        );
        statuses.push(attempt.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    } finally {
      await fake.close();
    }
  });
});

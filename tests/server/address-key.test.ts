// Addresses are counted as IPv4 addresses and IPv6 /64 networks, however they are written.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addressKey } from "#server/address-key.ts";

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

  it("keeps a name that is not an address as it is", () => {
    assert.equal(addressKey("not-an-ip"), "not-an-ip");
  });
});

// How many sockets one client address may hold open at once (an IPv6 /64 counts as one), so that one slow or
// greedy client cannot hold every socket the portal has; a socket past the bound is closed as it arrives.
import type { Server } from "node:http";
import { addressKey } from "#server/security/address-key.ts";

export function limitSocketsPerAddress(server: Server, most: number): void {
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const key = addressKey(socket.remoteAddress ?? "");
    const held = open.get(key) ?? 0;
    if (held >= most) {
      socket.destroy();
      return;
    }
    open.set(key, held + 1);
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}

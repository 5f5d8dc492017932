// Row 11a's plain side, in place of server/session/decode-cache.ts: @fastify/secure-session opens the cookie on every
// request, as the library does when nothing is put around its `decodeSecureSession`.
import type { FastifyInstance } from "fastify";

export function cacheSessionDecoding(_app: FastifyInstance, _expirySeconds: number): void {}

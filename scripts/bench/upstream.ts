// The bench's upstream: every operation answered at once, as the sandbox would for one user, with a realistic token.
// A plain node:http server, so the direct reference measures the upstream's floor rather than the sandbox's database.
import { createServer } from "node:http";
import { happyUpstream, jwtLikeToken } from "#tests/security/fake-upstream.ts";

const answer = happyUpstream({ token: jwtLikeToken(1200) });

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const call = {
      method: request.method ?? "",
      path: request.url ?? "",
      headers: request.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    void answer(call, response);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));

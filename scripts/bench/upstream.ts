// The bench's upstream: the one fake upstream (harness/fake-upstream.ts, the tests' double) in a process of its own,
// served by Fastify with the portal's production logging, like the sandbox. Every call is answered from memory, with a
// realistic 1.2 KB token (each login its own, as a real upstream issues them) and the largest realistic permissions.
// No call is recorded (a ten-minute load would fill memory).
import { happyUpstream, jwtLikeToken, startFakeUpstream } from "#harness/fake-upstream.ts";
import { loggerOptions } from "#server/plugins/logging.ts";

const upstream = await startFakeUpstream(happyUpstream({ token: () => jwtLikeToken(1200) }), {
  host: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT),
  record: false,
  logger: loggerOptions("info"),
});
process.on("SIGTERM", () => void upstream.close().then(() => process.exit(0)));

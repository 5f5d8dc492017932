// The shape of an /api operation the portal answers by its own upstream call: the rules table names such a function,
// and the module that makes the call (shared with another route) implements it, without importing the table.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "#server/context.ts";

/** An operation the portal answers by its own call of the upstream, made by a function another route shares. */
export type OwnCall = (input: {
  context: AppContext;
  request: FastifyRequest;
  reply: FastifyReply;
}) => Promise<unknown>;

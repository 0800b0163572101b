-- A prevented dispute whose refund (Stripe's, to the cardholder) fails after the dispute was handled
-- (docs/decisions/0022-money-in-combinations.md, A prevented dispute whose refund fails): its parts are
-- undone, no longer count against what is left of their orders, and what they took is given back.
ALTER TABLE "dispute_parts" ADD COLUMN "undone_at" timestamp with time zone;
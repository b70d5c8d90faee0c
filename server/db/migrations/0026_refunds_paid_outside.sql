ALTER TABLE "refunds" ADD COLUMN "outside" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payee_account_name" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payee_account_number" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payee_bank" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "transfer_reference" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "settled_by" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_settled_by_staff_id_fk" FOREIGN KEY ("settled_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_transfer_reference" ON "refunds" USING btree ("transfer_reference") WHERE "refunds"."transfer_reference" is not null;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_outside_has_payee" CHECK ("refunds"."outside" = ("refunds"."payee_account_number" is not null and "refunds"."payee_account_name" is not null and "refunds"."payee_bank" is not null));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payee_account_digits" CHECK ("refunds"."payee_account_number" is null or "refunds"."payee_account_number" ~ '^[0-9]{10}$');--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_transfer_only_outside" CHECK ("refunds"."transfer_reference" is null or "refunds"."outside");
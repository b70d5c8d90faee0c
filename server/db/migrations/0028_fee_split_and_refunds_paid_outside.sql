CREATE TABLE "fee_split_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fee_split_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"fee_id" integer NOT NULL,
	"position" integer NOT NULL,
	"beneficiary_name" text NOT NULL,
	"beneficiary_account" text NOT NULL,
	"bank_code" text NOT NULL,
	"amount_kobo" integer NOT NULL,
	"bears_charge" boolean DEFAULT false NOT NULL,
	CONSTRAINT "fee_split_items_amount_positive" CHECK ("fee_split_items"."amount_kobo" > 0),
	CONSTRAINT "fee_split_items_account_digits" CHECK ("fee_split_items"."beneficiary_account" ~ '^[0-9]{10}$'),
	CONSTRAINT "fee_split_items_bank_code_digits" CHECK ("fee_split_items"."bank_code" ~ '^[0-9]{3}$')
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "outside" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payee_account_name" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payee_account_number" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payee_bank" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "transfer_reference" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "settled_by" integer;--> statement-breakpoint
ALTER TABLE "fee_split_items" ADD CONSTRAINT "fee_split_items_fee_id_fee_schedule_id_fk" FOREIGN KEY ("fee_id") REFERENCES "public"."fee_schedule"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_split_items_position" ON "fee_split_items" USING btree ("fee_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_split_items_one_charge_bearer" ON "fee_split_items" USING btree ("fee_id") WHERE "fee_split_items"."bears_charge";--> statement-breakpoint
CREATE UNIQUE INDEX "fee_split_items_account_once" ON "fee_split_items" USING btree ("fee_id","bank_code","beneficiary_account");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_settled_by_staff_id_fk" FOREIGN KEY ("settled_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_transfer_reference" ON "refunds" USING btree ("transfer_reference") WHERE "refunds"."transfer_reference" is not null;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_outside_has_payee" CHECK ("refunds"."outside" = ("refunds"."payee_account_number" is not null and "refunds"."payee_account_name" is not null and "refunds"."payee_bank" is not null));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payee_account_digits" CHECK ("refunds"."payee_account_number" is null or "refunds"."payee_account_number" ~ '^[0-9]{10}$');--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_transfer_only_outside" CHECK ("refunds"."transfer_reference" is null or "refunds"."outside");
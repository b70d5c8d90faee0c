CREATE SEQUENCE "public"."waiting_line_tickets" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "waiting_line" (
	"id" integer PRIMARY KEY NOT NULL,
	"admitted_through" bigint NOT NULL,
	"held_since" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waiting_line_one_row" CHECK ("waiting_line"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "waiting_line_admissions" (
	"ticket" bigint PRIMARY KEY NOT NULL,
	"admitted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "waiting_line_admissions_admitted_at_index" ON "waiting_line_admissions" USING btree ("admitted_at");--> statement-breakpoint
INSERT INTO "waiting_line" ("id", "admitted_through") VALUES (1, 0);
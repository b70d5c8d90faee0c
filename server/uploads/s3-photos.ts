import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { PhotoBackend } from "./photo-storage.ts";

/** A bucket on AWS S3 or any S3-compatible store (MinIO, Ceph, R2…); server/env.ts reads them. */
export type S3Settings = {
  /** Omitted for AWS S3 itself. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** http://host/bucket/key instead of http://bucket.host/key: MinIO and most self-hosted stores. */
  forcePathStyle: boolean;
};

/** Photos share a bucket with whatever else the college keeps there, under their own prefix. */
export const S3_PHOTO_PREFIX = "passport-photos/";

/** Photos as objects in a bucket (decision 128). */
export function s3PhotoBackend(settings: S3Settings): PhotoBackend {
  const client = new S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Every outbound call has a time-out: a student's upload waits seconds, not minutes.
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000 },
    // Checksum headers only where S3 requires them: several S3-compatible stores refuse the
    // CRC32 headers the SDK adds by default to every upload.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = settings.bucket;
  const where = settings.endpoint ? `${new URL(settings.endpoint).host}/${Bucket}` : Bucket;

  return {
    description: `S3 bucket ${where}, under ${S3_PHOTO_PREFIX}`,

    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: S3_PHOTO_PREFIX + key,
          Body: bytes,
          ContentType: contentType,
        }),
      );
    },

    async get(key) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket, Key: S3_PHOTO_PREFIX + key }),
        );
        if (!object.Body) return null;
        return Buffer.from(await object.Body.transformToByteArray());
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      // S3 answers 204 whether or not the object existed.
      await client.send(new DeleteObjectCommand({ Bucket, Key: S3_PHOTO_PREFIX + key }));
    },
  };
}

// Only a missing object: a missing bucket (NoSuchBucket, also a 404) is a setup fault to report.
function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException && (error.name === "NoSuchKey" || error.name === "NotFound")
  );
}

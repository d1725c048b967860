"""``target = "s3"``: upload the changed files only, every other file before the HTML pages, and
delete the objects no longer in the site last, so old pages never point at files already
deleted.  Credentials come from the environment only (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
...), never from config.toml."""

from __future__ import annotations

import base64
import hashlib
import mimetypes
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar

from ranking import InputError
from site_builder.publishers import SOURCE, AttemptFailed, Counts, Log, PublishSettings, site_files

S3_EXTRA = "pip install 'tiebreak[s3]'"
_TEXT = "charset=utf-8"
CONTENT_TYPES = {
    ".html": f"text/html; {_TEXT}", ".htm": f"text/html; {_TEXT}", ".css": "text/css",
    ".js": "application/javascript", ".mjs": "application/javascript", ".json": "application/json",
    ".map": "application/json", ".csv": f"text/csv; {_TEXT}", ".txt": f"text/plain; {_TEXT}",
    ".trf": f"text/plain; {_TEXT}", ".toml": f"text/plain; {_TEXT}", ".xml": "application/xml",
    ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml", ".png": "image/png",
    ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
    ".avif": "image/avif", ".ico": "image/x-icon", ".woff": "font/woff", ".woff2": "font/woff2",
    ".ttf": "font/ttf", ".otf": "font/otf", ".pdf": "application/pdf",
}
_NO_CACHE_SUFFIXES = {".html", ".htm", ".json", ".csv", ".txt", ".trf", ".toml", ".xml", ".webmanifest"}
NO_CACHE = "no-cache, max-age=0, must-revalidate"
IMMUTABLE = "public, max-age=31536000, immutable"
SHORT_CACHE = "public, max-age=3600"
_HASHED_NAME = re.compile(r"[.-](?=[0-9a-f]*[0-9])[0-9a-f]{8,64}\.[A-Za-z0-9]+$", re.IGNORECASE)


@dataclass(frozen=True, kw_only=True)
class S3Settings(PublishSettings):
    """``target = "s3"``: ``bucket``, a key ``prefix``, and for S3-compatible storage ``endpoint_url``
    and ``region``."""

    target: ClassVar[str] = "s3"
    keys: ClassVar[tuple[str, ...]] = ("bucket", "prefix", "endpoint_url", "region")
    required: ClassVar[str] = "bucket"
    blank_keys: ClassVar[tuple[str, ...]] = ("prefix",)

    bucket: str
    prefix: str = ""
    endpoint_url: str | None = None
    region: str | None = None

    @classmethod
    def from_table(cls, table: Mapping[str, Any], base: Path) -> S3Settings:
        endpoint = table.get("endpoint_url")
        if endpoint is not None and not re.match(r"https?://", endpoint):
            raise InputError(f"endpoint_url = {endpoint!r}: expected an http:// or https:// URL", source=SOURCE)
        return cls(bucket=table["bucket"], prefix=table.get("prefix", ""), endpoint_url=endpoint,
                   region=table.get("region"), **cls.common(table))

    def check(self, out_dir: Path) -> None:
        try:
            import boto3  # noqa: F401  (an optional extra: imported only when s3 is the target)
        except ImportError:
            raise InputError(f"the s3 publisher needs boto3: {S3_EXTRA}", source=SOURCE) from None

    def attempt(self, out_dir: Path, log: Log) -> Counts:
        client = _make_s3_client(self)
        bucket = self.bucket
        prefix = _s3_prefix(self.prefix)
        remote: dict[str, str] = {}
        for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
            for item in page.get("Contents", []):
                remote[item["Key"]] = item.get("ETag", "").strip('"')

        files = site_files(out_dir)
        digests: dict[str, bytes] = {}
        changed = []
        for name in files:
            digest = hashlib.md5((out_dir / name).read_bytes(), usedforsecurity=False).digest()
            digests[name] = digest
            if remote.get(prefix + name) != digest.hex():
                changed.append(name)
        assets = [name for name in changed if not _is_page(name)]
        pages = sorted((name for name in changed if _is_page(name)), key=_page_order)
        for name in assets + pages:  # new files first, the pages that link to them last
            with (out_dir / name).open("rb") as body:
                client.put_object(Bucket=bucket, Key=prefix + name, Body=body, ContentType=content_type(name),
                                  CacheControl=cache_control(name),
                                  ContentMD5=base64.b64encode(digests[name]).decode("ascii"))

        wanted = {prefix + name for name in files}
        stale = sorted(key for key in remote if key not in wanted and not key.endswith("/"))
        for start in range(0, len(stale), 1000):
            chunk = stale[start:start + 1000]
            answer = client.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": key} for key in chunk],
                                                                  "Quiet": True})
            errors = answer.get("Errors") or []
            if errors:
                first = errors[0]
                raise AttemptFailed(f"s3 could not delete {first.get('Key')}: {first.get('Code')} "
                                    f"{first.get('Message', '')}")
        return {"uploaded": len(changed), "deleted": len(stale), "unchanged": len(files) - len(changed),
                "detail": f"s3://{bucket}/{prefix}"}


def content_type(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in CONTENT_TYPES:
        return CONTENT_TYPES[suffix]
    guessed, _ = mimetypes.guess_type(path)
    return guessed or "application/octet-stream"


def cache_control(path: str) -> str:
    """Pages and data must revalidate; static assets are cached, for a year when their names carry a hash."""
    name = PurePosixPath(path).name
    if PurePosixPath(path).suffix.lower() in _NO_CACHE_SUFFIXES:
        return NO_CACHE
    return IMMUTABLE if _HASHED_NAME.search(name) else SHORT_CACHE


def _is_page(path: str) -> bool:
    return PurePosixPath(path).suffix.lower() in (".html", ".htm")


def _page_order(path: str) -> tuple[int, int, str]:
    """Pages before the index pages that link to them, the deepest first, the root index.html last."""
    parts = PurePosixPath(path).parts
    return (PurePosixPath(path).name == "index.html", -len(parts), path)


def _make_s3_client(settings: S3Settings) -> Any:
    """The S3 client (a seam for the tests); credentials come from the environment, never from config.toml."""
    # boto3 is an optional extra (pip install 'tiebreak[s3]'): imported only when s3 is the target
    import boto3
    from botocore.config import Config

    options: dict[str, Any] = {"retries": {"max_attempts": 3, "mode": "standard"}}
    if settings.endpoint_url:  # S3-compatible storage: path-style addressing and no new-style checksums
        options["s3"] = {"addressing_style": "path"}
        options["request_checksum_calculation"] = "when_required"
        options["response_checksum_validation"] = "when_required"
    try:
        config = Config(**options)
    except TypeError:  # an older botocore without the checksum options
        options.pop("request_checksum_calculation", None)
        options.pop("response_checksum_validation", None)
        config = Config(**options)
    return boto3.client("s3", endpoint_url=settings.endpoint_url, region_name=settings.region, config=config)


def _s3_prefix(prefix: str) -> str:
    prefix = prefix.strip("/")
    return f"{prefix}/" if prefix else ""

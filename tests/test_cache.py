"""The Redis cache keeps one redis-py client per connection pool (trainer/cache.py)."""

import threading

import pytest

from trainer.cache import RedisCache


@pytest.fixture
def redis_cache(redis_url):
    cache = RedisCache(redis_url, {"KEY_PREFIX": "cache-test"})
    yield cache
    cache.clear()


@pytest.mark.redis
def test_it_reuses_one_client_for_every_call(redis_cache):
    assert redis_cache._cache.get_client(write=True) is redis_cache._cache.get_client()
    assert redis_cache.add("counter", 1, 60)
    assert not redis_cache.add("counter", 1, 60)
    assert redis_cache.incr("counter") == 2
    redis_cache.set("session", {"user": 7}, 60)
    assert redis_cache.get("session") == {"user": 7}
    assert redis_cache.delete("session")
    assert redis_cache.get("session") is None


@pytest.mark.redis
def test_it_counts_right_from_many_threads(redis_cache):
    redis_cache.set("counter", 0, 60)

    def count():
        for _ in range(50):
            redis_cache.incr("counter")

    threads = [threading.Thread(target=count) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert redis_cache.get("counter") == 400

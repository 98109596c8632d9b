from tests.portable.check import raises


def test_raises_helper_catches_the_named_error():
    def boom():
        raise ValueError("x")

    assert isinstance(raises(ValueError, boom), ValueError)

"""The tablet's race screen and worn gauges: "tire wear ... reach its maximum of 8 points. In this case speed may
be reduced by 40 mph only"; "brake wear ... maximum of 5 points. In this case speed may be reduced by 20 mph only".
The speeds it offers and the speeds it takes come from the car's own rules (Car.speed_choices, Car.set_speed)."""

from tests.companion.test_f1_view import new_view


def test_the_tablet_offers_and_takes_no_reduction_the_car_cannot_pay_for(tmp_path):
    view = new_view(tmp_path)
    car = view.active_car()
    car.speed, car.brake = 100, 5  # as after a race of hard braking
    assert view.speed_choices() == [80, 100, 120, 140, 160]
    logged = len(view.ref.history())
    assert view.set_speed(60) is None
    assert view.message == "brakes at 5: reduce speed by 20 mph at most"
    assert not car.speed_set and len(view.ref.history()) == logged  # refused: nothing happened, nothing logged
    assert view.set_speed(80) is not None and car.speed == 80 and car.brake == 5


def test_tyres_at_8_may_still_reduce_by_40(tmp_path):
    view = new_view(tmp_path)
    car = view.active_car()
    car.speed, car.tyre = 120, 8
    assert view.speed_choices()[0] == 80
    assert view.set_speed(60) is None and view.message == "tyres at 8: reduce speed by 40 mph at most"
    assert view.set_speed(80) is not None and (car.speed, car.brake, car.tyre) == (80, 1, 8)
